// MotionTestSupport: every test double in one place, in the manner of NIOEmbedded — the
// in-memory output folder with injectable stalls and failures (`MemoryDirectory`), the
// scripted GPIO (`ScriptedGPIO`), a seeded random source (`SplitMix`). Test targets and the
// benchmark program's tests depend on it; the shipped `motionlog` executable does not.
// The register-level fake chips and the fake I2C bus stay in MotionSimulator because the
// simulator board ships them (`--imu CHIP`).
