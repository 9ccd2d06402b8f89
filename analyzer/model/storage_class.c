/* storage_class.c - owns the table of storage classes and their published speeds
 * (storage_class.h). */
#include "model/storage_class.h"

#include <string.h>

#define MBPS 1e6 /* decimal MB/s, as the published tests give them */

/* The figures and sources of docs/method.md, "Storage classes". */
static const storage_class_t classes[] = {
    {"usb3-hdd-outer",
     "external 2.5\" 5400 rpm hard disk on USB 3.0, outer tracks (an empty disk)",
     120 * MBPS, 125 * MBPS,
     "https://thetoolstrunk.com/best-external-hard-drive/; "
     "https://pixelation.org/usb-30-external-hard-drive-why-most-people-are-still-buying-the-wrong-one-1mrd; "
     "https://ritelink.blog/6-cheap-external-hard-drives"},
    {"usb3-hdd-inner",
     "the same disk, inner tracks (an almost full disk; also drive-managed SMR)",
     60 * MBPS, 62 * MBPS,
     "outer tracks x 0.5: https://pastebin.com/9zgPqZd3 (HD Tune min/max 0.46, 0.48); "
     "https://wikisum.wiki/wiki/Zone_bit_recording"},
    {"sata-ssd",
     "internal SATA 6 Gb/s TLC SSD with Trim, writes after its SLC cache is full",
     300 * MBPS, 520 * MBPS,
     "https://techpowerup.com/review/samsung-870-evo-4-tb/6.html; "
     "https://techpowerup.com/review/crucial-mx300-m-2-525-gb/6.html; "
     "http://www.legitreviews.com/wd-blue-1tb-ssd-review_186633/3; "
     "https://cdrlabs.com/reviews/crucial-mx500-1tb-solid-state-drive/trim-performance-and-final-thoughts.html"},
    {"sata-ssd-notrim",
     "SATA SSD without Trim, or nearly full after random writes (QLC drives too)",
     100 * MBPS, 500 * MBPS,
     "https://cdrlabs.com/reviews/crucial-mx500-1tb-solid-state-drive/trim-performance-and-final-thoughts.html; "
     "https://cdrlabs.com/reviews/crucial-mx500-4tb-solid-state-drive/trim-performance-and-final-thoughts.html"},
    {"usb3.2g2-ssd",
     "external SSD on USB 3.2 Gen 2 (10 Gb/s), Samsung T7 class, after its SLC cache",
     800 * MBPS, 950 * MBPS,
     "http://everythingusb.com/super-talent-usb-3.0-express-rc4-flash-drive-21763.html; "
     "https://eugen-standard.pages.dev/en/reviews/external-ssd/samsung/t7/1tb/; "
     "link: 10 Gb/s x 128/132 = 1,212 MB/s"},
    {"tb3-ssd",
     "Thunderbolt 3 external NVMe (PCIe 3.0 x4 tunnel), PCIe 3.0 TLC drive inside",
     1200 * MBPS, 2700 * MBPS,
     "https://benrabicoff.com/fastest-ssd; "
     "https://spy.macrumors.com/threads/thunderbolt-3-m-2-nvme-ssd-enclosures.2027925/page-20; "
     "https://www.nextinpact.com/brief/samsung-x5---un-ssd-nvme-thunderbolt-3-capable-de-grimper-a-2-800-mo-s-5138.htm; "
     "https://pcper.com/2018/04/samsung-970-pro-512gb-and-970-evo-250gb-500gb-1tb-nvme-ssd-review/5/"},
    {"usb4-ssd",
     "USB4 40 Gb/s external NVMe (ASM2464PD bridge), PCIe 4.0 drive inside",
     1500 * MBPS, 3400 * MBPS,
     "https://divbracket.com/trending-news/155260.html; https://benrabicoff.com/fastest-ssd; "
     "writes: the nvme-gen4 figure; link: 2 x 20 Gb/s x 128/132 = 4,850 MB/s"},
    {"nvme-gen3",
     "internal M.2 NVMe, PCIe 3.0 x4, mainstream TLC, writes after its SLC cache",
     800 * MBPS, 3000 * MBPS,
     "https://pcper.com/2018/04/samsung-970-pro-512gb-and-970-evo-250gb-500gb-1tb-nvme-ssd-review/5/; "
     "https://www.techpowerup.com/review/samsung-980-non-pro-1-tb/6.html; "
     "https://techpowerup.com/review/neo-forza-esports-nfp075-1-tb/6.html; "
     "https://80199.u5oyv.group/print/13760/the-western-digital-wd-black-sn750-ssd-review"},
    {"nvme-gen4",
     "internal M.2 NVMe, PCIe 4.0 x4, mainstream to high-end TLC, writes after its SLC cache",
     1500 * MBPS, 5000 * MBPS,
     "median whole-drive write of seven TechPowerUp reviews: "
     "https://techpowerup.com/review/crucial-t500-2-tb/6.html; "
     "https://techpowerup.com/review/wd-blue-sn580-1-tb/6.html; "
     "https://techpowerup.com/review/adata-xpg-atom-50-1-tb/6.html; "
     "https://techpowerup.com/review/lexar-nm800-pro-heatsink-2-tb/6.html; "
     "https://www.techpowerup.com/review/sabrent-rocket-4-plus-2-tb-ps5-heatsink/6.html; "
     "https://techpowerup.com/review/samsung-980-pro-1-tb-ssd/6.html; "
     "https://techpowerup.com/review/msi-spatium-m480-play-2-tb/6.html; reads: "
     "https://kitguru.net/components/ssd-drives/simon-crisp/seagate-firecuda-520-1tb-ssd-review/8"},
    {"nas-1gbe",
     "SMB or NFS share on a NAS over 1 GbE (the link is the limit)",
     110 * MBPS, 112 * MBPS,
     "https://github.com/dperson/samba/issues/70; "
     "https://www.szwecent.com/how-can-i-identify-a-network-versus-drive-speed-bottleneck-in-my-nas/; "
     "link: 125 x 1448/1538 = 117.7 MB/s of TCP payload"},
    {"nas-2.5gbe",
     "SMB or NFS share over 2.5 GbE (the link is the limit; the NAS's disks must keep up)",
     270 * MBPS, 280 * MBPS,
     "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/647; "
     "link: 312.5 x 1448/1538 = 294.2 MB/s of TCP payload, less SMB's overhead"},
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
