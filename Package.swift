// swift-tools-version:6.1
// motionlog — a sensor recorder for Linux single-board computers.
// The folder layout under Sources/ is the architecture: see docs/ARCHITECTURE.md.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "motionlog",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "motionlog", targets: ["motionlog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        // Vectors, quaternions and matrices shared by the simulator, drivers and fusion.
        .target(name: "MotionMath", swiftSettings: strict),
        // The operating system: every system call (files, clocks, threads, sockets, signals,
        // ioctls, clock status, processes) as thin typed wrappers over swift-system's Errno
        // and FileDescriptor. The only module that imports Glibc (besides the C shims).
        .target(name: "MotionSystem",
                dependencies: ["CGPS", "CI2C", "CFileSystem", .product(name: "SystemPackage", package: "swift-system")],
                swiftSettings: strict),
        // Samples, the CSV format, clocks, scheduler, double-buffered writer, rotation,
        // metadata and the recording pipeline. No hardware, no system calls of its own.
        .target(name: "MotionCore",
                dependencies: ["MotionMath", "MotionSystem",
                               .product(name: "SystemPackage", package: "swift-system"),
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        // Board files and the config file (YAML with comments), with file/line/key errors.
        .target(name: "MotionConfig",
                dependencies: ["MotionCore", "MotionSystem", "IMUDrivers", .product(name: "Yams", package: "Yams"),
                               .product(name: "SystemPackage", package: "swift-system")],
                swiftSettings: strict),
        // Sensor fusion: attitude, gravity, user acceleration (D rows). Pure Swift.
        .target(name: "MotionFusion", dependencies: ["MotionMath", "MotionCore"], swiftSettings: strict),
        // IMU chip drivers over an abstract I2C bus (register maps, conversions).
        .target(name: "IMUDrivers", dependencies: ["MotionMath", "MotionCore"], swiftSettings: strict),
        // System libraries.
        .systemLibrary(name: "CI2C", path: "Sources/CI2C", providers: [.apt(["libi2c-dev"])]),
        .systemLibrary(name: "CGPS", path: "Sources/CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        // Linux backends: /dev/i2c-N, gpsd, GPIO character device.
        .target(name: "LinuxHardware",
                dependencies: ["MotionCore", "MotionSystem", "IMUDrivers", "CGPS",
                               .product(name: "SystemPackage", package: "swift-system"),
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        // Scripted fakes and scenarios (the simulator board ships in the binary).
        .target(name: "MotionSimulator",
                dependencies: ["MotionMath", "MotionCore", "IMUDrivers"],
                swiftSettings: strict),
        // Analysis of recordings: track, stops and moves, activity, movement, health. Pure Swift.
        .target(name: "MotionAnalysis", dependencies: ["MotionCore", "MotionSystem",
                                                       .product(name: "SystemPackage", package: "swift-system")],
                swiftSettings: strict),
        // Getting recordings off the logger: verified copies to a USB stick or folder, and
        // uploads to a remote through rclone. Reads finished recordings only.
        .target(name: "CFileSystem", path: "Sources/CFileSystem"),
        .target(name: "MotionOffload",
                dependencies: ["MotionCore", "MotionSystem",
                               .product(name: "Crypto", package: "swift-crypto"),
                               .product(name: "SystemPackage", package: "swift-system")],
                swiftSettings: strict),
        // Commands (record, check, boards, ...) as a library, so tests drive them directly.
        .target(name: "MotionApp",
                dependencies: ["MotionCore", "MotionSystem", "MotionConfig", "MotionFusion", "IMUDrivers", "MotionAnalysis",
                               "LinuxHardware", "MotionSimulator", "MotionOffload", "MotionWeb",
                               .product(name: "ArgumentParser", package: "swift-argument-parser"),
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        // The web page and JSON API on Hummingbird: list, summary, downloads, ZIP, delete.
        .target(name: "MotionWeb",
                dependencies: ["MotionCore", "MotionSystem", "MotionAnalysis",
                               .product(name: "SystemPackage", package: "swift-system"),
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                               .product(name: "HTTPTypes", package: "swift-http-types"),
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .executableTarget(name: "motionlog", dependencies: ["MotionApp"], swiftSettings: strict),
        // Every test double (in-memory folder, scripted GPIO, seeded random source); not shipped.
        .target(name: "MotionTestSupport",
                dependencies: ["MotionCore", "MotionSystem", "LinuxHardware", .product(name: "SystemPackage", package: "swift-system")],
                swiftSettings: strict),
        // Benchmarks (make bench); never part of make test's assertions.
        .executableTarget(name: "motionlog-bench",
                          dependencies: ["MotionCore", "MotionSystem", "MotionSimulator", "MotionFusion", "MotionMath", "IMUDrivers", "MotionAnalysis",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Logging", package: "swift-log")],
                          swiftSettings: strict),

        // Every reader of a file the world hands motionlog under libFuzzer (make fuzz); without
        // -DFUZZING it replays saved inputs.
        .executableTarget(name: "motionlog-fuzz", dependencies: ["MotionCore", "MotionAnalysis", "MotionConfig", "MotionSystem"], swiftSettings: strict),

        .testTarget(name: "MotionCoreTests", dependencies: ["MotionTestSupport", "MotionCore", "MotionMath", "MotionSystem"], swiftSettings: strict),
        .testTarget(name: "MotionConfigTests", dependencies: ["MotionConfig"], swiftSettings: strict),
        .testTarget(name: "MotionFusionTests", dependencies: ["MotionTestSupport", "MotionFusion", "MotionMath", "MotionCore", "MotionSimulator", "IMUDrivers"], swiftSettings: strict),
        .testTarget(name: "IMUDriversTests", dependencies: ["IMUDrivers", "MotionSimulator"], swiftSettings: strict),
        .testTarget(name: "LinuxHardwareTests", dependencies: ["MotionTestSupport", "LinuxHardware"],
                    resources: [], swiftSettings: strict),
        .testTarget(name: "MotionSimulatorTests", dependencies: ["MotionSimulator", "MotionCore"], swiftSettings: strict),
        .testTarget(name: "MotionAnalysisTests", dependencies: ["MotionTestSupport", "MotionAnalysis", "MotionCore", "MotionSimulator"],
                    swiftSettings: strict),
        .testTarget(name: "MotionWebTests",
                    dependencies: ["MotionWeb", "MotionCore", "MotionSystem",
                                   .product(name: "SystemPackage", package: "swift-system"),
                                   .product(name: "HummingbirdTesting", package: "hummingbird"),
                                   .product(name: "HTTPTypes", package: "swift-http-types"),
                                   .product(name: "ZIPFoundation", package: "ZIPFoundation")],
                    swiftSettings: strict),
        .testTarget(name: "MotionAppTests", dependencies: ["MotionTestSupport", "MotionApp", "MotionCore", "MotionSimulator", "MotionSystem"], swiftSettings: strict),
        .testTarget(name: "MotionOffloadTests", dependencies: ["MotionTestSupport", "MotionOffload", "MotionCore"], swiftSettings: strict),
        // The benchmark program's own logic (statistics, fakes, baselines' input); no timings.
        .testTarget(name: "MotionLogBenchTests", dependencies: ["motionlog-bench", "MotionCore"], swiftSettings: strict),
    ]
)
