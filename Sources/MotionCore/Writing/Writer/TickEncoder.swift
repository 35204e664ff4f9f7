/// One tick's rows as text, with what the chunk and the metadata need of them. The bytes
/// live where the encoder was told to write them (the chunk's free room).
struct EncodedTick {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Rows per source, by `Source.order`.
    let rowsBySource: SIMD8<Int>
    let firstWhen: Double
    let lastWhen: Double
}

/// Encodes a tick's rows straight into raw memory (the chunk's free room), with local counters
/// (the writer's stored properties are read and written once per tick, not once per row).
/// The rows of one tick share their When, so its text is made once (`WhenText`). The
/// `Double.description` maker is kept for benchmarks (same bytes, slower).
final class TickEncoder {
    private let numberText: NumberText.Maker
    /// The text of the last When written, across ticks (in raw memory: changing it needs no
    /// exclusivity check).
    private let when: UnsafeMutablePointer<WhenText>
    /// One row's text from `Double.description` (the reference maker).
    private var descriptionText: [UInt8] = []

    init(numberText: NumberText.Maker) {
        self.numberText = numberText
        when = .allocate(capacity: 1)
        when.initialize(to: WhenText())
    }

    deinit {
        when.deinitialize(count: 1)
        when.deallocate()
    }

    /// Encodes `rows` (one tick, not empty) at `out`, which has room for `rows.count` rows of
    /// `CSVFormat.maxRowBytes`.
    func encode(_ rows: UnsafeBufferPointer<Row>, first: Row, into out: UnsafeMutablePointer<UInt8>) -> EncodedTick {
        var count = 0
        var bySource = SIMD8<Int>()
        var lastWhen = first.when
        if numberText == .ownFormatter {
            let when = self.when
            // Counted in scalars (a SIMD lane picked at run time goes through memory).
            var a = 0, g = 0, m = 0, d = 0, l = 0
            for i in rows.indices {
                count &+= RowEncoder.encode(rows[i], into: out + count, when: &when.pointee)
                switch rows[i].source {
                case .accelerometer: a &+= 1
                case .gyroscope: g &+= 1
                case .magnetometer: m &+= 1
                case .deviceMotion: d &+= 1
                case .location: l &+= 1
                }
                lastWhen = max(lastWhen, rows[i].when)
            }
            bySource = SIMD8(a, g, m, d, l, 0, 0, 0)
        } else {
            for row in rows {
                descriptionText.removeAll(keepingCapacity: true)
                RowEncoder.appendWithDescriptions(row, to: &descriptionText)
                descriptionText.withUnsafeBufferPointer { text in
                    if let b = text.baseAddress { (out + count).update(from: b, count: text.count) }
                }
                count &+= descriptionText.count
                bySource[row.source.order] &+= 1
                lastWhen = max(lastWhen, row.when)
            }
        }
        return EncodedTick(bytes: UnsafeBufferPointer(start: out, count: count), rowsBySource: bySource,
                           firstWhen: first.when, lastWhen: lastWhen)
    }
}
