import Foundation
import MotionCore

/// Figure 2: rows per second for the real row mix (A, G, M, D at 1 kHz, L at 1 Hz) written
/// by motionlog's writer (`RotatingWriter`: encoding, 256 KiB chunks, write(2)) into
/// /dev/null and into a file, next to a C `snprintf("%.17g")` writer and Python's
/// `csv.writer` given the same rows. Rounds alternate the writers; each figure is the
/// median of the rounds. Only formatting and writing are timed, for all three.
enum FormatFigure {
    struct Measure: Codable, Sendable {
        /// Median rows per second over the rounds.
        var rowsPerSecond: Double
        var rounds: [Double]
    }

    struct Destination: Codable, Sendable {
        var motionlog: Measure
        var c: Measure?
        var python: Measure?
        /// motionlog ÷ C, and motionlog ÷ Python.
        var ratioToC: Double?
        var ratioToPython: Double?
    }

    struct Result: Codable, Sendable {
        var rows: Int
        var rowsBySource: [String: Int]
        var bytesPerRow: Double
        var devNull: Destination
        var file: Destination
        /// Encoding alone (RowEncoder into memory, no system call), for reference.
        var encodeOnly: Measure
        /// Encoding alone with the number text from `Double.description` (the reference).
        var encodeDescription: Measure?
        /// The formatter against `Double.description` on random bit patterns.
        var formatterCheck: FormatterCheck?
        var unavailable: [String: String]
    }

    static func run(_ ctx: BenchContext) throws(BenchError) -> Result {
        ctx.progress("format: generating \(ctx.plan.formatTicks) ticks of rows from the simulator")
        let rows = try RowMix.generate(ticks: ctx.plan.formatTicks)
        let rowsFile = ctx.work + "/rows.bin"
        try RowMix.writeBinary(rows, to: rowsFile)
        let fileDir = try ctx.folder("format")
        let cTarget = fileDir + "/c.csv", pythonTarget = fileDir + "/python.csv"
        var unavailable: [String: String] = [:]
        if let p = ctx.baselines.problems["csv_writer"] { unavailable["c"] = p }

        var samples: [String: [Double]] = [:]
        var bytes = 0
        for round in 1...ctx.plan.formatRounds {
            ctx.progress("format: round \(round)/\(ctx.plan.formatRounds)")
            for destination in ["devNull", "file"] {
                let devNull = destination == "devNull"
                let (rate, written) = try motionlogRate(rows, devNull ? nil : fileDir)
                bytes = written
                samples["motionlog-\(destination)", default: []].append(rate)
                if let c = ctx.baselines.csvWriter {
                    do {
                        samples["c-\(destination)", default: []].append(try external(c, [rowsFile, devNull ? "/dev/null" : cTarget, "1"], ctx))
                    } catch { unavailable["c"] = "\(error)" }
                }
                if unavailable["python"] == nil {
                    do {
                        samples["python-\(destination)", default: []].append(
                            try external(ctx.python, [ctx.baselines.pythonScript, rowsFile, devNull ? "/dev/null" : pythonTarget, "1"], ctx))
                    } catch { unavailable["python"] = "\(error) — install python3 or pass --python" }
                }
                if destination == "file" {
                    if round == 1 { try checkSameRows(fileDir, c: samples["c-file"] != nil, python: samples["python-file"] != nil) }
                    clear(fileDir)
                }
            }
            samples["encode", default: []].append(encodeRate(rows, description: false))
            samples["encodeDescription", default: []].append(encodeRate(rows, description: true))
        }
        ctx.progress("format: \(ctx.plan.formatterCheckValues) random bit patterns against Double.description")
        let check = FormatterCheck.run(values: ctx.plan.formatterCheckValues, seed: UInt64.random(in: 0...UInt64.max))
        ctx.remove(fileDir)
        ctx.remove(rowsFile)

        func measure(_ key: String) -> Measure? {
            guard let v = samples[key], let m = median(v) else { return nil }
            return Measure(rowsPerSecond: m, rounds: v)
        }
        func destination(_ d: String) -> Destination {
            let ours = measure("motionlog-\(d)") ?? Measure(rowsPerSecond: 0, rounds: [])
            let c = unavailable["c"] == nil ? measure("c-\(d)") : nil
            let py = unavailable["python"] == nil ? measure("python-\(d)") : nil
            return Destination(motionlog: ours, c: c, python: py,
                               ratioToC: c.map { ours.rowsPerSecond / $0.rowsPerSecond },
                               ratioToPython: py.map { ours.rowsPerSecond / $0.rowsPerSecond })
        }
        return Result(rows: rows.count, rowsBySource: RowMix.census(rows),
                      bytesPerRow: Double(bytes) / Double(max(1, rows.count)),
                      devNull: destination("devNull"), file: destination("file"),
                      encodeOnly: measure("encode") ?? Measure(rowsPerSecond: 0, rounds: []),
                      encodeDescription: measure("encodeDescription"), formatterCheck: check,
                      unavailable: unavailable)
    }

    /// The files of one round hold the same rows (checked once, on the first round).
    static func checkSameRows(_ folder: String, c: Bool, python: Bool) throws(BenchError) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard let ours = names.first(where: { $0 != "c.csv" && $0 != "python.csv" && $0.hasSuffix(".csv") }) else {
            throw BenchError("motionlog's writer left no CSV in \(folder)")
        }
        var others: [String] = []
        if c { others.append(folder + "/c.csv") }
        if python { others.append(folder + "/python.csv") }
        if let problem = SameRowsCheck.mismatch(reference: folder + "/" + ours, others: others) {
            throw BenchError("the writers did not write the same rows, so they cannot be compared: \(problem)")
        }
    }

    /// motionlog's writer: rows/s and bytes written. `folder` nil means /dev/null.
    /// The first row opens the file (and writes its metadata) before the clock starts.
    static func motionlogRate(_ rows: [Row], _ folder: String?) throws(BenchError) -> (Double, Int) {
        let directory: OutputDirectory
        if let folder {
            do { directory = try DiskDirectory(path: folder) } catch { throw BenchError("\(error)") }
        } else {
            directory = NullDirectory()
        }
        let counters = RecorderCounters(bufferCapacity: rows.count)
        let description = RecordingDescription(
            id: "format-benchmark", board: "simulator", boardDescription: nil, sensor: BenchParts.makeSensor().info,
            gps: nil, deviceMotion: nil, rateHz: 1000, sources: "AGMDL", label: "W", whenMode: .epoch,
            startEpoch: rows.first?.when ?? 0, started: "", clock: "simulated", rotateBytes: nil, rotateSeconds: nil,
            fsyncIntervalSeconds: 1, bufferRows: rows.count, notes: [])
        let writer = RotatingWriter(directory: directory, description: description,
                                    configuration: .init(rotation: .none, softwareVersion: BenchParts.softwareVersion),
                                    counters: counters, whenOffset: 0, log: BenchParts.logger())
        let seconds: Double = rows.withUnsafeBufferPointer { all in
            guard all.count > 1 else { return 0 }
            writer.write(UnsafeBufferPointer(rebasing: all[0..<1]))
            writer.flushChunk()
            let t0 = SystemClock.monotonicNanos()
            writer.write(UnsafeBufferPointer(rebasing: all[1...]))
            writer.flushChunk()
            return Double(SystemClock.monotonicNanos() - t0) / 1e9
        }
        writer.finish(reason: "duration")
        let written = counters.written.all.values.reduce(0, +)
        guard written == Int64(rows.count), counters.snapshot().writeErrors == 0 else {
            throw BenchError("motionlog's writer wrote \(written) of \(rows.count) rows (\(counters.snapshot().writeErrors) write errors) into \(folder ?? "/dev/null")")
        }
        let bytes = (directory as? NullDirectory).map { Int($0.bytesWritten) } ?? fileBytes(folder)
        return (Double(rows.count - 1) / max(seconds, 1e-9), bytes - CSVFormat.headerBytes.count)
    }

    /// Encoding alone into a reused buffer (cleared every 256 KiB, as the writer's chunk is).
    static func encodeRate(_ rows: [Row], description: Bool) -> Double {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256 * 1024 + CSVFormat.maxRowBytes)
        var total = 0
        var when = WhenText()
        let t0 = SystemClock.monotonicNanos()
        for row in rows {
            if description {
                RowEncoder.appendWithDescriptions(row, to: &buffer)
            } else {
                RowEncoder.append(row, to: &buffer, when: &when)
            }
            if buffer.count >= 256 * 1024 { total += buffer.count; buffer.removeAll(keepingCapacity: true) }
        }
        total += buffer.count
        let seconds = Double(SystemClock.monotonicNanos() - t0) / 1e9
        return total > 0 ? Double(rows.count) / max(seconds, 1e-9) : 0
    }

    /// A baseline child: rows/s from its one timed repetition.
    static func external(_ program: String, _ args: [String], _ ctx: BenchContext) throws(BenchError) -> Double {
        let (out, _) = try ChildProcess.runJSON(WriterOutput.self, program, args, scratch: ctx.work)
        guard let s = out.seconds.first, s > 0 else { throw BenchError("`\(program)` reported no timing") }
        return Double(out.rows) / s
    }

    struct WriterOutput: Codable {
        var rows: Int
        var seconds: [Double]
    }

    static func fileBytes(_ folder: String?) -> Int {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        return names.filter { $0.hasSuffix(".csv") }.reduce(0) { total, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0
            return total + size
        }
    }

    static func clear(_ folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
}
