/* target_name.h - the name of the memory target, the one target that is no directory: its
 * output is counted and discarded. The command line reserves it (cli/parse.c), the engine
 * gives it (measure/target.c) and the analysis recognises its rows by it (model/analysis.c):
 * one spelling for all three. */
#ifndef CP_TARGET_NAME_H
#define CP_TARGET_NAME_H

#define CP_MEM_TARGET_NAME "mem"

#endif
