/// `Int64(x.rounded(.down))` without a call into the C library's `floor` (Swift's baseline
/// x86-64 has no rounding instruction), for the per-row bin and interval numbers: the
/// same result, and the same trap for a NaN or an x out of Int64's range.
@inline(__always)
func floorToInt64(_ x: Double) -> Int64 {
    let truncated = Int64(x)   // toward zero; every |x| ≥ 2^52 is already an integer
    return Double(truncated) > x ? truncated - 1 : truncated
}
