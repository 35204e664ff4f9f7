import SystemPackage

/// Typed-throws forms of the standard library's buffer accessors, which still throw
/// `any Error`: a system call made on an array's bytes keeps its `Errno`.
extension Array {
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws(Errno) -> R) throws(Errno) -> R {
        try withUnsafeBytes { raw in Result { () throws(Errno) -> R in try body(raw) } }.get()
    }

    public mutating func withMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws(Errno) -> R) throws(Errno) -> R {
        try withUnsafeMutableBytes { raw in Result { () throws(Errno) -> R in try body(raw) } }.get()
    }

    public mutating func withMutableBuffer<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws(Errno) -> R) throws(Errno) -> R {
        try withUnsafeMutableBufferPointer { buffer in Result { () throws(Errno) -> R in try body(buffer) } }.get()
    }
}
