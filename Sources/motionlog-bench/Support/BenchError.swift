/// Why a benchmark step could not run: what failed, where, and what to do about it.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
