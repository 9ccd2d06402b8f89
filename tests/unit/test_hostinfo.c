/* Host description: parsers on fixed /proc texts and the live machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <unistd.h>

#include "measure/hostinfo.h"
#include "common/sys_linux_parse.h"

static void test_cpuinfo_x86_model_name_collapsed(void **state)
{
    (void)state;
    const char text[] = "processor\t: 0\n"
                        "vendor_id\t: GenuineIntel\n"
                        "model\t\t: 85\n"
                        "model name\t: Intel(R) Xeon(R)   Gold 6148 CPU @ 2.40GHz  \n"
                        "\nprocessor\t: 1\nmodel name\t: Other\n";
    char model[128];
    assert_int_equal(sys_parse_cpuinfo(text, model, sizeof model), 0);
    assert_string_equal(model, "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz");
}

static void test_cpuinfo_fallbacks_and_truncation(void **state)
{
    (void)state;
    char model[16];
    assert_int_equal(sys_parse_cpuinfo("processor : 0\ncpu model : R4000\n", model,
                                             sizeof model), 0);
    assert_string_equal(model, "R4000");
    assert_int_equal(sys_parse_cpuinfo("processor : 0\nHardware : BCM2835 board\n",
                                             model, sizeof model), 0);
    assert_string_equal(model, "BCM2835 board");
    assert_int_equal(sys_parse_cpuinfo("model name : A very long CPU name here\n",
                                             model, sizeof model), 0);
    assert_string_equal(model, "A very long CPU");
    /* aarch64 often has no model line at all. */
    assert_int_equal(sys_parse_cpuinfo("processor : 0\nBogoMIPS : 50.00\n"
                                             "CPU implementer : 0x41\n", model, sizeof model),
                     CP_EDATA);
    assert_string_equal(model, "");
}

static void test_meminfo_total(void **state)
{
    (void)state;
    uint64_t bytes = 0;
    assert_int_equal(sys_parse_meminfo_total("MemTotal:       24683656 kB\n"
                                             "MemFree:         1000 kB\n", &bytes), 0);
    assert_int_equal(bytes, 24683656ull * 1024ull);
    assert_int_equal(sys_parse_meminfo_total("MemFree: 1000 kB\n", &bytes), CP_EDATA);
}

static void test_os_release_pretty_name(void **state)
{
    (void)state;
    char name[64];
    assert_int_equal(sys_parse_os_release("NAME=\"Debian GNU/Linux\"\n"
                                                "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n",
                                                name, sizeof name), 0);
    assert_string_equal(name, "Debian GNU/Linux 12 (bookworm)");
    assert_int_equal(sys_parse_os_release("PRETTY_NAME=Alpine\n", name, sizeof name), 0);
    assert_string_equal(name, "Alpine");
    assert_int_equal(sys_parse_os_release("NAME=x\n", name, sizeof name), CP_EDATA);
}

#define LIST_MAX_CPUS 8192

/* Marks the CPUs of a kernel CPU list ("0-3,6,8-9") in set, by hand; their count, or -1
 * when the list does not parse. */
static int mark_cpu_list(const char *p, unsigned char set[LIST_MAX_CPUS])
{
    int count = 0;
    while (*p != '\0' && *p != '\n') {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p)
            return -1;
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        for (long c = lo; c <= hi && c >= 0 && c < LIST_MAX_CPUS; c++, count++)
            set[c] = 1;
        p = *end == ',' ? end + 1 : end;
    }
    return count;
}

/* The CPU list on the line of path that starts with prefix ("" for the first line),
 * marked in set (zeroed first): a source independent of the calls hostinfo makes. Its
 * count, or -1 when it cannot be read. */
static int cpus_listed(const char *path, const char *prefix, unsigned char set[LIST_MAX_CPUS])
{
    memset(set, 0, LIST_MAX_CPUS);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    char line[LIST_MAX_CPUS];
    int count = -1;
    size_t n = strlen(prefix);
    while (count < 0 && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, prefix, n) == 0)
            count = mark_cpu_list(line + n + strspn(line + n, " \t"), set);
    fclose(f);
    return count;
}

static void test_live_machine(void **state)
{
    (void)state;
    host_info_t h;
    assert_int_equal(host_info_get(&h), 0);
    /* Online: the kernel's list. Usable: the CPUs this process may run on, as the
     * kernel lists them in /proc/self/status (not nproc, which also follows
     * OMP_NUM_THREADS and, in recent coreutils, a cgroup's CPU quota). */
    static unsigned char online[LIST_MAX_CPUS], allowed[LIST_MAX_CPUS];
    int listed = cpus_listed("/sys/devices/system/cpu/online", "", online);
    if (listed > 0)
        assert_int_equal(h.online_cpus, listed);
    /* The affinity the kernel reports leaves out offline CPUs; the status line does not. */
    if (listed > 0 && cpus_listed("/proc/self/status", "Cpus_allowed_list:", allowed) > 0) {
        int usable = 0;
        for (int c = 0; c < LIST_MAX_CPUS; c++)
            usable += online[c] && allowed[c];
        assert_int_equal(h.usable_cpus, usable);
    }
    assert_true(h.usable_cpus >= 1 && h.usable_cpus <= h.online_cpus);
    assert_true(h.mem_total_bytes > 64ull * 1024 * 1024);
    assert_true(strlen(h.kernel_release) > 0);
    assert_true(strlen(h.machine) > 0);
    print_message("host: '%s', %d/%d CPUs, %.1f GiB, %s %s, '%s'\n", h.cpu_model,
                  h.usable_cpus, h.online_cpus, (double)h.mem_total_bytes / 1073741824.0,
                  h.kernel_release, h.machine, h.os_name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpuinfo_x86_model_name_collapsed),
        cmocka_unit_test(test_cpuinfo_fallbacks_and_truncation),
        cmocka_unit_test(test_meminfo_total),
        cmocka_unit_test(test_os_release_pretty_name),
        cmocka_unit_test(test_live_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
