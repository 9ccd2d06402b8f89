/* commands.h - one entry point per subcommand. Each takes the arguments after the
 * subcommand name (argv[0] is the subcommand), prints its own one-line error on failure,
 * and returns a process exit status (0, 1, 2 or 130); main only dispatches. */
#ifndef CP_CLI_COMMANDS_H
#define CP_CLI_COMMANDS_H

int cmd_fixture(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_compress(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_import(int argc, char **argv);

#endif
