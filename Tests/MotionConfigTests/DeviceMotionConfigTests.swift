import MotionConfig
import MotionCore
import Testing

/// `device_motion:` in the config file: parsed once into `DeviceMotionOrigin`.
@Suite("device_motion in the config file")
struct DeviceMotionConfigTests {
    @Test func parsedIntoItsEnum() throws {
        #expect(try RecorderSettings.parse(text: "device_motion: chip\n", file: "c.yaml").deviceMotion == .chip)
        #expect(try RecorderSettings.parse(text: "device_motion: motionlog\n", file: "c.yaml").deviceMotion == .motionlog)
        #expect(try RecorderSettings.parse(text: "rate: 50\n", file: "c.yaml").deviceMotion == nil)
    }

    @Test func aBadValueNamesLineAndKeyAndWhatIsAccepted() {
        var caught: ConfigError?
        do { _ = try RecorderSettings.parse(text: "rate: 50\ndevice_motion: bno\n", file: "c.yaml") } catch { caught = error }
        #expect(caught?.line == 2 && caught?.key == "device_motion")
        #expect(caught?.message.contains("motionlog") == true && caught?.message.contains("chip") == true)
    }
}
