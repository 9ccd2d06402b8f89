# writeback-thresholds.sh - sourced by the scripts that set the page cache's write-back
# thresholds for a study (validate-model.sh, emulation-check.sh): it records the four
# settings now, and restore_dirty puts back whichever of each bytes/ratio pair was in
# force (setting a *_bytes value zeroes its ratio and the other way round). Call
# restore_dirty from the script's EXIT trap, so errors and interrupts restore them too.
sysctl_keys="vm.dirty_background_bytes vm.dirty_bytes vm.dirty_background_ratio vm.dirty_ratio"
declare -A saved
for k in $sysctl_keys; do saved[$k]=$(sysctl -n "$k"); done
restore_dirty() {
    if [ "${saved[vm.dirty_background_bytes]}" != 0 ]; then
        sysctl -qw "vm.dirty_background_bytes=${saved[vm.dirty_background_bytes]}"
    else
        sysctl -qw "vm.dirty_background_ratio=${saved[vm.dirty_background_ratio]}"
    fi
    if [ "${saved[vm.dirty_bytes]}" != 0 ]; then
        sysctl -qw "vm.dirty_bytes=${saved[vm.dirty_bytes]}"
    else
        sysctl -qw "vm.dirty_ratio=${saved[vm.dirty_ratio]}"
    fi
}
