/* target_name.h - the name of the memory target, the one target that is no directory: its
 * output is counted and discarded, so its series is the CPU ceiling. The command line
 * reserves it (cli/parse.c), the engine gives it (measure/target_mem.c) and the analysis
 * recognises its rows by it (model/analysis.c): one spelling for all three. Code that holds
 * a target_spec_t asks its kind's capabilities (measure/target.h) instead. */
#ifndef CP_TARGET_NAME_H
#define CP_TARGET_NAME_H

#include <stdbool.h>
#include <string.h>

#define CP_MEM_TARGET_NAME "mem"

/* True when a target named name (as runs.csv and the command line give it) is the CPU
 * ceiling: the memory target. False for NULL. */
static inline bool target_name_is_ceiling(const char *name)
{
    return name != NULL && strcmp(name, CP_MEM_TARGET_NAME) == 0;
}

#endif
