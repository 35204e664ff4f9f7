/// Board files compiled into the binary, so `--board simulator` works from any folder
/// with no boards folder installed. A board file of the same name in the boards folder
/// takes precedence. `boards/simulator.yaml` holds the same text (a test keeps them equal).
public enum BuiltInBoards {
    /// The text of each built-in board file, by board name.
    public static let texts: [String: String] = ["simulator": simulator]

    /// Where errors in a built-in board point.
    public static func file(_ name: String) -> String { "<built-in>/\(name).yaml" }

    static let simulator = """
        # The simulator board: a scripted bicycle ride (about 4 minutes, looped) drives a
        # simulated 9-axis IMU and a 1 Hz GPS through the same recording pipeline that runs on
        # a Raspberry Pi. Use it to try motionlog without hardware:
        #   motionlog record --board simulator --duration 10
        name: simulator
        description: Simulated board — scripted bike ride (or --scenario commute, car, night), 9-axis IMU and GPS, no hardware needed
        imu:
          # "simulated" is the ideal scripted IMU; with --imu CHIP (mpu9250, icm20948, lsm9ds1,
          # bno055, or mpu6050/lsm6dsox/icm42688 with +qmc5883l, +hmc5883l or +lis3mdl) the real
          # chip drivers run against register-level fakes of those chips.
          model: simulated
          mount: ["+x", "+y", "+z"]
        gps:
          # Only used with --gpsd (the simulated IMU beside a real gpsd); otherwise the scripted
          # route provides the fixes.
          gpsd: localhost:2947
        output: ./recordings

        """
}
