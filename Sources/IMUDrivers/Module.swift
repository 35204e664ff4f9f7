// IMUDrivers
