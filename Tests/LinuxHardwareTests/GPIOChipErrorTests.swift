import Foundation
import MotionTestSupport
@testable import LinuxHardware
import Testing

/// The Linux backend's error paths, which need no GPIO hardware.
@Suite("GPIO chip errors")
struct GPIOChipErrorTests {
    @Test func aMissingChipSaysSoAndHowToFindTheRightOne() {
        #expect {
            _ = try GPIOChip(path: "/dev/gpiochip99")
        } throws: { error in
            guard let e = error as? GPIOError else { return false }
            return e.kind == .chipNotFound && e.description.contains("/dev/gpiochip99 does not exist")
                && e.description.contains("ls /dev/gpiochip*")
        }
        #expect(throws: GPIOError.self) { _ = try GPIOChip.open("gpiochip99") }
    }

    @Test func aFileThatIsNotAChipIsReportedAsSuch() {
        #expect {
            _ = try GPIOChip(path: "/dev/null")
        } throws: { error in
            guard let e = error as? GPIOError else { return false }
            return e.kind == .notAGPIOChip && e.description.contains("/dev/null is not a GPIO character device")
        }
    }

    @Test func anUnknownLabelListsWhatWasFound() throws {
        let dev = ScratchFolder.make("gpio")
        #expect {
            _ = try GPIOChip.open("pinctrl-rp1", devDirectory: dev)
        } throws: { error in
            (error as? GPIOError)?.description.contains("no GPIO chip named or labelled \"pinctrl-rp1\" (no readable GPIO chips in \(dev))") ?? false
        }
        // A file named like a chip that is not one is skipped, not trusted.
        #expect(FileManager.default.createFile(atPath: dev + "/gpiochip0", contents: Data("x".utf8)))
        #expect {
            _ = try GPIOChip.open("pinctrl-rp1", devDirectory: dev)
        } throws: { error in
            (error as? GPIOError)?.kind == .chipNotFound
        }
    }

    @Test func chipsAreListedInNumericOrder() throws {
        let dev = ScratchFolder.make("gpio")
        for name in ["gpiochip10", "gpiochip2", "gpiochip0", "gpiochipx", "ttyS0"] {
            #expect(FileManager.default.createFile(atPath: dev + "/" + name, contents: nil))
        }
        #expect(GPIOChip.chipPaths(in: dev) == [dev + "/gpiochip0", dev + "/gpiochip2", dev + "/gpiochip10"])
    }

    @Test func openingTheLinesOfAMissingChipFailsWithTheChipError() {
        let wiring = GPIOWiring(chip: "/dev/gpiochip99", button: .init(line: 17, bias: .pullUp, activeLow: true),
                                labelButton: nil, led: .init(line: 27, activeLow: false))
        #expect {
            _ = try LinuxGPIOLines(wiring: wiring)
        } throws: { error in
            (error as? GPIOError)?.kind == .chipNotFound
        }
    }

    @Test func permissionProblemsNameTheGroupToJoin() {
        let e = GPIOError.opening("/dev/gpiochip0", .permissionDenied)
        #expect(e.kind == .permissionDenied)
        #expect(e.description.contains("group gpio"))
    }
}

@Suite("Kernel version")
struct GPIOKernelVersionTests {
    @Test func releasesAreReadForTheUAPIv2Check() {
        #expect(KernelVersion.parse("6.1.0-rpi7-rpi-v8").atLeast(5, 10))
        #expect(KernelVersion.parse("5.10.103-v7l+").atLeast(5, 10))
        #expect(!KernelVersion.parse("4.9.337-tegra").atLeast(5, 10))
        #expect(!KernelVersion.parse("5.4.0").atLeast(5, 10))
        #expect(KernelVersion.parse("6.6.45+rpt-rpi-2712").description == "6.6.45+rpt-rpi-2712")
    }
}
