import Foundation
import MotionCore

/// The real row mix of a 1 kHz recording of all sources: per tick one A, G, M and D row,
/// once a second an L row, with the simulator's values (noise makes every digit count).
/// Shared by the Swift, C and Python writers through a binary file of 88-byte records
/// (u8 source, u8 label, 6 padding bytes, f64 When, 9 × f64 values; little-endian).
enum RowMix {
    static let recordBytes = 88

    /// Rows of `ticks` ticks at `rateHz`, generated as the sampling loop would.
    static func generate(ticks: Int, rateHz: Int = 1000) throws(BenchError) -> [Row] {
        let sensor = BenchParts.makeSensor()
        let gps = BenchParts.makeLocation()
        let estimator = try BenchParts.makeEstimator()
        let timeline = TickTimeline(rateHz: rateHz, firstTick: BenchParts.simulatedEpochNanos / 1_000_000_000 * Int64(rateHz),
                                    startMonotonic: 1_000_000_000, whenMode: .epoch)
        let label = Label.defaultLetter
        let dt = 1 / Double(rateHz)
        var rows: [Row] = []
        rows.reserveCapacity(ticks * 4 + ticks / rateHz + 1)
        for k in 0..<Int64(ticks) {
            let tick = timeline.tick(k)
            let r = sensor.read(at: tick)
            if let a = r.accel { rows.append(Row(source: .accelerometer, label: label, when: tick.when, a.x, a.y, a.z)) }
            if let g = r.gyro { rows.append(Row(source: .gyroscope, label: label, when: tick.when, g.x, g.y, g.z)) }
            if let m = r.mag { rows.append(Row(source: .magnetometer, label: label, when: tick.when, m.x, m.y, m.z)) }
            if let a = r.accel, let g = r.gyro {
                let motion = estimator.update(accel: a, gyro: g, mag: r.mag, dt: dt)
                rows.append(Row(deviceMotion: motion, label: label, when: tick.when))
            }
            gps.poll(at: tick) { fix in rows.append(Row(fix: fix, label: label)) }
        }
        return rows
    }

    /// Rows per source letter.
    static func census(_ rows: [Row]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for r in rows { counts[String(r.source.letter), default: 0] += 1 }
        return counts
    }

    /// Writes the rows as binary records for the C and Python baselines.
    static func writeBinary(_ rows: [Row], to path: String) throws(BenchError) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(rows.count * recordBytes)
        func put(_ v: Double) {
            withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for row in rows {
            bytes.append(row.source.rawValue)
            bytes.append(row.label)
            bytes.append(contentsOf: [0, 0, 0, 0, 0, 0])
            put(row.when)
            for i in 0..<9 { put(i < row.source.valueCount ? row[i] : 0) }
        }
        do { try Data(bytes).write(to: URL(fileURLWithPath: path)) } catch {
            throw BenchError("cannot write the rows file \(path): \(error)")
        }
    }
}
