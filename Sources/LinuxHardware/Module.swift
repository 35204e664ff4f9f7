// LinuxHardware
