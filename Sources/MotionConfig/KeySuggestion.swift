/// The known key a mistyped one most likely meant: at most two edits away (a letter
/// added, dropped, changed, or two swapped: Damerau–Levenshtein, optimal string
/// alignment), and at most a third of its letters.
enum KeySuggestion {
    static func closest(to key: String, among known: [String]) -> String? {
        let typed = Array(key.lowercased())
        var best: (key: String, distance: Int)?
        for candidate in known {
            let d = distance(typed, Array(candidate.lowercased()))
            let limit = min(2, max(1, max(typed.count, candidate.count) / 3))
            if d <= limit, d < best?.distance ?? Int.max { best = (candidate, d) }
        }
        return best?.key
    }

    /// Optimal string alignment distance between `a` and `b`.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
