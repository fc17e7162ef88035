# tests/runtime/pcidev.sh - a PCI function of a made-up sysfs tree, for shell tests; source it.
#   pcidev DIR BDF DEVICE NODEID GIDNIDMAP
# makes DIR/bus/pci/devices/BDF with vendor 0x8086, device DEVICE and 256 bytes of config space
# holding NODEID at 0x40 (a U-Box's CPUNODEID) and GIDNIDMAP at 0x54, the two registers the
# kernel's snbep_pci2phy_map_init() maps PCI buses to packages with (runtime/pci.c).
pcidev() {
    local d=$1/bus/pci/devices/$2
    mkdir -p "$d"
    echo 0x8086 >"$d/vendor"
    echo "$3" >"$d/device"
    python3 -c 'import sys
b = bytearray(256)
b[0x40:0x44] = int(sys.argv[2], 0).to_bytes(4, "little")
b[0x54:0x58] = int(sys.argv[3], 0).to_bytes(4, "little")
open(sys.argv[1], "wb").write(b)' "$d/config" "$4" "$5"
}
