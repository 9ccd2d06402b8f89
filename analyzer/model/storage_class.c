/* storage_class.c - owns the table of storage classes and their published speeds
 * (storage_class.h). */
#include "model/storage_class.h"

#include <string.h>

#define MBPS 1e6 /* decimal MB/s, as the published tests give them */

/* The figures and sources of docs/method.md, "Storage classes": each source a publication
 * (a review article, a vendor's data sheet, the standard of a link), named here and cited
 * there with its title and address. */
static const storage_class_t classes[] = {
    {"usb3-hdd-outer", "2.5\" 5400 rpm disk on USB 3.0, outer tracks (empty disk)",
     120 * MBPS, 125 * MBPS,
     "Seagate BarraCuda 2.5\" data sheet (140 MB/s at the outer diameter); "
     "USB 3.0 Specification (5 Gb/s, 8b/10b: 500 MB/s, not the limit)"},
    {"usb3-hdd-inner", "the same disk, inner tracks (almost full; or SMR)",
     60 * MBPS, 62 * MBPS,
     "the outer figure x 0.5: zone bit recording, rate in proportion to the track's radius; "
     "AnandTech, Seagate Introduces BarraCuda 2.5\" Mobile Hard Drives (SMR)"},
    {"sata-ssd", "internal SATA TLC SSD with Trim, after its SLC cache",
     300 * MBPS, 520 * MBPS,
     "TechPowerUp, Samsung 870 EVO 4 TB Review; TechPowerUp, Crucial MX300 M.2 525 GB Review; "
     "Legit Reviews, WD Blue 1TB SSD Review; CDRLabs, Crucial MX500 1TB Solid State Drive; "
     "Serial ATA Revision 3.0 (6 Gb/s, 8b/10b: 600 MB/s)"},
    {"sata-ssd-notrim", "SATA SSD without Trim or full after random writes; QLC",
     100 * MBPS, 500 * MBPS,
     "CDRLabs, Crucial MX500 1TB and 4TB Solid State Drive reviews; "
     "KitGuru, Samsung SSD 870 QVO 4TB Review"},
    {"usb3.2g2-ssd", "external SSD on USB 3.2 Gen 2 (T7 class), after its cache",
     800 * MBPS, 950 * MBPS,
     "USB 3.2 Specification (Gen 2: 10 Gb/s, 128b/132b: 1,212 MB/s); "
     "Samsung Portable SSD T7 data sheet (1,050 MB/s read, 1,000 MB/s write); "
     "AnandTech, Samsung Portable SSD T7 Shield Review"},
    {"tb3-ssd", "Thunderbolt 3 NVMe, PCIe 3.0 TLC drive inside",
     1200 * MBPS, 2700 * MBPS,
     "Samsung Portable SSD X5 data sheet (2,800 MB/s read); PC Perspective, Samsung 970 PRO "
     "512GB and 970 EVO 250GB, 500GB, 1TB NVMe SSD Review; Tom's Hardware, Samsung T7 Shield "
     "Portable SSD Review (the X5 is a 970 EVO inside)"},
    {"usb4-ssd", "USB4 40 Gb/s NVMe enclosure, PCIe 4.0 drive inside",
     1500 * MBPS, 3400 * MBPS,
     "USB4 Specification (2 x 20 Gb/s, 128b/132b: 4,850 MB/s; reads derived at 70% of it); "
     "writes: the nvme-gen4 figure"},
    {"nvme-gen3", "internal PCIe 3.0 x4 NVMe, TLC, after its SLC cache",
     800 * MBPS, 3000 * MBPS,
     "PC Perspective, Samsung 970 PRO 512GB and 970 EVO 250GB, 500GB, 1TB NVMe SSD Review; "
     "TechPowerUp, Samsung 980 1 TB Review; TechPowerUp, Neo Forza eSports NFP075 1 TB Review; "
     "AnandTech, The Western Digital WD Black SN750 SSD Review; "
     "PCI Express Base Specification 3.0 (x4: 3,940 MB/s)"},
    {"nvme-gen4", "internal PCIe 4.0 x4 NVMe, TLC, after its SLC cache",
     1500 * MBPS, 5000 * MBPS,
     "median whole-drive fill of seven TechPowerUp reviews (Crucial T500, WD Blue SN580, "
     "ADATA XPG Atom 50, Lexar NM800 Pro, Sabrent Rocket 4 Plus, Samsung 980 Pro, MSI Spatium "
     "M480 Play); KitGuru, Seagate FireCuda 520 1TB SSD Review; "
     "PCI Express Base Specification 4.0 (x4: 7,880 MB/s)"},
    {"nas-1gbe", "SMB or NFS share over 1 GbE (the link is the limit)",
     110 * MBPS, 112 * MBPS,
     "IEEE 802.3ab (1000BASE-T): 125 MB/s x 1448/1538 = 117.7 MB/s of TCP payload, "
     "less SMB's or NFS's framing"},
    {"nas-2.5gbe", "SMB or NFS share over 2.5 GbE (the NAS's disks must keep up)",
     270 * MBPS, 280 * MBPS,
     "IEEE 802.3bz (2.5GBASE-T): 312.5 MB/s x 1448/1538 = 294.2 MB/s of TCP payload, "
     "less SMB's or NFS's framing"},
};

size_t storage_class_count(void)
{
    return sizeof classes / sizeof classes[0];
}

const storage_class_t *storage_class_at(size_t i)
{
    return i < storage_class_count() ? &classes[i] : NULL;
}

const storage_class_t *storage_class_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < storage_class_count(); i++)
        if (strcmp(classes[i].name, name) == 0)
            return &classes[i];
    return NULL;
}
