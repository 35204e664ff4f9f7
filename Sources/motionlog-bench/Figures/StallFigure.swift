import Foundation
import MotionCore

/// Figure 5: a storage sink that stalls for 0.5, 2 and 5 s while motionlog records all
/// sources at 1 kHz on the real clock with the default buffers: rows dropped and memory.
/// Next to it, the inline baseline (writes on the sampling thread, as OpenLog Artemis does)
/// with the same stalls, and smaller buffers at the longest stall to show where dropping
/// starts (the evidence for the default buffer size).
enum StallFigure {
    struct Result: Codable, Sendable {
        var rateHz: Int
        var defaultBufferRows: Int
        /// Bytes of one binary row in the buffers (MemoryLayout<Row>.stride).
        var rowBytes: Int
        /// Both buffers at the default size, bytes.
        var bufferBytes: Int
        var schedule: String
        var motionlog: [StallProbeResult]
        var inline: [StallProbeResult]
        var smallerBuffers: [StallProbeResult]
    }

    static func run(_ ctx: BenchContext) throws(BenchError) -> Result {
        let p = ctx.plan
        var ours: [StallProbeResult] = [], inline: [StallProbeResult] = [], sweep: [StallProbeResult] = []
        func probe(_ mode: String, _ length: Double, bufferRows: Int = RecorderConfiguration.defaultBufferRows) throws(BenchError) -> StallProbeResult {
            let seconds = p.stallRunSeconds(length)
            ctx.progress("stalls: \(mode), \(p.stallCount) × \(length) s stall, \(mode == "recorder" ? "\(bufferRows) rows per buffer, " : "")\(seconds) s")
            let (r, _) = try ChildProcess.runJSON(
                StallProbeResult.self, ctx.selfPath,
                ["stall-probe", "--mode", mode, "--stall", "\(length)", "--first-after", "\(p.stallFirstAfter)",
                 "--interval", "\(p.stallInterval)", "--count", "\(p.stallCount)", "--seconds", "\(seconds)",
                 "--buffer-rows", "\(bufferRows)"], scratch: ctx.work)
            return r
        }
        for length in p.stallLengths {
            ours.append(try probe("recorder", length))
            inline.append(try probe("inline", length))
        }
        if let longest = p.stallLengths.max() {
            for rows in p.sweepBufferRows { sweep.append(try probe("recorder", longest, bufferRows: rows)) }
        }
        let stride = MemoryLayout<Row>.stride
        return Result(rateHz: 1000, defaultBufferRows: RecorderConfiguration.defaultBufferRows, rowBytes: stride,
                      bufferBytes: 2 * RecorderConfiguration.defaultBufferRows * stride,
                      schedule: "first stall \(p.stallFirstAfter) s after the first write, \(p.stallCount) stall(s), \(p.stallInterval) s apart, \(p.stallTail) s tail",
                      motionlog: ours, inline: inline, smallerBuffers: sweep)
    }
}
