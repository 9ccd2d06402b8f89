/* hostinfo.c - the machine a run happened on (hostinfo.h), as common/sys describes it, and
 * the oversubscription warning. */
#include "measure/hostinfo.h"

#include <string.h>

#include "common/log.h"
#include "common/sys.h"

int host_info_get(host_info_t *out)
{
    sys_host_info(out);
    return 0;
}

int host_warn_oversubscribed(const int *threads, size_t n)
{
    host_info_t h;
    memset(&h, 0, sizeof h);
    host_info_get(&h);
    int cpus = h.usable_cpus > 0 ? h.usable_cpus : h.online_cpus;
    int top = 0;
    for (size_t i = 0; i < n; i++)
        top = threads[i] > top ? threads[i] : top;
    if (cpus <= 0 || top <= cpus)
        return 0;
    cp_log_warn("threads up to %d on %d usable CPU%s: the points above %d are oversubscribed "
                "(the threads take turns on the cores, so they measure time-slicing, not "
                "scaling); reports mark them", top, cpus, cpus == 1 ? "" : "s", cpus);
    return top;
}
