import MotionSystem
import Testing

/// The disk of a partition, from sysfs: offload refuses a partition on the card's own disk.
@Suite struct BlockDiskTests {
    @Test func theDiskOfAPartitionIsItsParentInSysfs() {
        #expect(BlockDisk.disk(fromSysfsPath: "../../devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0/mmcblk0p2") == "mmcblk0")
        #expect(BlockDisk.disk(fromSysfsPath: "../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/sda1") == "sda")
        #expect(BlockDisk.disk(fromSysfsPath: "../../devices/virtual/block/loop0") == "loop0")
        #expect(BlockDisk.disk(fromSysfsPath: "../../devices/pci0000:00/nvme/nvme0/nvme0n1/block") == nil)
        // A file system without a block device (tmpfs: major 0) has no disk.
        #expect(BlockDisk.name(ofDevice: 0x2a) == nil)
    }
}
