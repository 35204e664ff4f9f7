import Glibc
import IMUDrivers
import LinuxHardware
import Testing

/// `/dev/i2c-N` opening errors, on a machine without I2C hardware: each is a typed error
/// that says what to do. (The tests run as root, so the permission message is checked
/// through the message builder.)
@Suite struct I2CBusTests {
    @Test func aMissingBusExplainsHowToEnableI2C() {
        #expect {
            _ = try LinuxI2CBus(bus: 99)
        } throws: { error in
            guard let e = error as? I2CError else { return false }
            return e.kind == .noSuchBus && e.errno == ENOENT && e.bus == "/dev/i2c-99"
                && e.description.contains("opening /dev/i2c-99 failed: no such I2C bus")
                && e.description.contains("dtparam=i2c_arm=on") && e.description.contains("modprobe i2c-dev")
        }
    }

    @Test func aDeviceNodeThatIsNotAnAdapterSaysSo() {
        #expect {
            _ = try LinuxI2CBus(path: "/dev/null")
        } throws: { error in
            guard let e = error as? I2CError else { return false }
            return e.kind == .notAnAdapter && e.errno == ENOTTY
                && e.description.contains("/dev/null") && e.description.contains("not an I2C adapter")
                && e.description.contains("/dev/i2c-1")
        }
    }

    @Test func aPlainFileIsNotAnAdapterEither() throws {
        let path = "/tmp/motionlog-i2c-test-\(getpid())"
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        try #require(fd >= 0)
        close(fd)
        defer { unlink(path) }
        #expect(throws: I2CError.self) { _ = try LinuxI2CBus(path: path) }
        do { _ = try LinuxI2CBus(path: path) } catch { #expect(error.kind == .notAnAdapter) }
    }

    @Test func permissionDeniedNamesTheGroupAndTheUdevRule() {
        let e = I2CErrno.openError(path: "/dev/i2c-1", errno: EACCES)
        #expect(e.kind == .permissionDenied)
        #expect(e.description.hasPrefix("opening /dev/i2c-1 failed: permission denied (errno \(EACCES)"))
        #expect(e.description.contains("usermod -aG i2c"))
        #expect(e.description.contains("SUBSYSTEM==\"i2c-dev\", GROUP=\"i2c\", MODE=\"0660\""))
    }

    @Test func transferErrnosMapToKinds() {
        func kind(_ e: Int32) -> I2CError.Kind {
            I2CErrno.transferError(path: "/dev/i2c-1", operation: .read(count: 6), address: 0x68, register: 0x3B, errno: e).kind
        }
        #expect(kind(EREMOTEIO) == .noAcknowledge)
        #expect(kind(ENXIO) == .noAcknowledge)
        #expect(kind(EIO) == .ioError)
        #expect(kind(EAGAIN) == .ioError)
        #expect(kind(ETIMEDOUT) == .timeout)
        #expect(kind(EINVAL) == .transferFailed)
        let e = I2CErrno.transferError(path: "/dev/i2c-1", operation: .read(count: 6), address: 0x68, register: 0x3B, errno: EIO)
        #expect(e.description.contains("register 0x3B of device 0x68 on /dev/i2c-1"))
        #expect(e.description.contains("errno \(EIO)"))
    }

    @Test func busArguments() {
        #expect(LinuxI2CBus.path(forArgument: "1") == "/dev/i2c-1")
        #expect(LinuxI2CBus.path(forArgument: "/dev/null") == "/dev/null")
        #expect(LinuxI2CBus.path(forArgument: "x") == nil)
        #expect(LinuxI2CBus.path(forArgument: "-1") == nil)
    }
}
