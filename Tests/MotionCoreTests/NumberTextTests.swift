import MotionCore
import Testing
import MotionTestSupport

@Suite("Number text is exactly Swift's description")
struct NumberTextTests {
    static let edges: [Double] = [0, -0.0, 1, -1, 3, -0.39, 1e-05, 0.0001, 0.00009999, 1e-4, 1e16, 1e15, 123456789012345680,
                                  .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .leastNormalMagnitude,
                                  .greatestFiniteMagnitude, 0.1 + 0.2, 1763735405.01, 1763735405.0, 2.5e-300, -7.25]

    func text(_ v: Double) -> String {
        var bytes: [UInt8] = []
        NumberText.append(v, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("edge values", arguments: edges)
    func edge(_ v: Double) {
        #expect(text(v) == "\(v)")
    }

    @Test func randomBitPatternsAndSensorLikeValues() {
        var g = SplitMix(state: 42)
        for _ in 0..<200_000 {
            let bits = Double(bitPattern: g.next())
            #expect(text(bits) == bits.description)
            let sensor = Double.random(in: -20...20, using: &g)
            #expect(text(sensor) == sensor.description)
        }
    }

    @Test func formatExamples() {
        #expect(text(0.0) == "0.0")
        #expect(text(3.0) == "3.0")
        #expect(text(1e-05) == "1e-05")
        #expect(text(-0.0) == "-0.0")
        #expect(text(.nan) == "nan")
    }

    @Test func rowLinesAreRaggedAndUnpadded() {
        let a = Row(source: .accelerometer, label: Label.defaultLetter, when: 1763735405.01, 0.206573, -0.479309, -0.807968)
        #expect(RowEncoder.line(a) == "A,W,1763735405.01,0.206573,-0.479309,-0.807968")
        let fix = LocationFix(when: 1763735405.0, latitude: 52.520008, longitude: 13.404954, altitudeMSL: 34.2,
                              speed: 5.12, course: 87.5, climb: 0.0, eph: 3.1, epv: 4.6, mode: 3)
        #expect(RowEncoder.line(Row(fix: fix, label: Label.defaultLetter))
                == "L,W,1763735405.0,52.520008,13.404954,34.2,5.12,87.5,0.0,3.1,4.6,3")
        let twoD = LocationFix(when: 5, latitude: 1, longitude: 2, mode: 2)
        #expect(RowEncoder.line(Row(fix: twoD, label: Label.turning)) == "L,T,5.0,1.0,2.0,nan,nan,nan,nan,nan,nan,2")
        #expect(CSVFormat.headerLine == "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw")
    }
}
