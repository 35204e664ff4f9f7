/// When the writer starts a new file. Either limit, both, or neither (one file).
public struct RotationPolicy: Sendable, Equatable {
    /// Start a new file before a row would make the current one larger than this.
    public var maxBytes: Int64?
    /// Start a new file every this many seconds of recording time (boundaries counted from
    /// the first sample, so files are equally long even across gaps).
    public var maxSeconds: Double?

    public init(maxBytes: Int64? = nil, maxSeconds: Double? = nil) {
        self.maxBytes = maxBytes; self.maxSeconds = maxSeconds
    }

    public static let none = RotationPolicy()
}
