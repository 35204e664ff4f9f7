/// What the binary was built from, for `motionlog --version`. `make build` (and `make
/// test`) write `BuildCommit.generated.swift` beside this file (git-ignored) with the output
/// of `git describe --always --dirty`, and that file's `commit` takes precedence over the
/// default below. A plain `swift build`, or a tree without git, says "unknown".
enum BuildInfo: BuildCommitDefault {}

/// The fallback when no commit was recorded at build time.
protocol BuildCommitDefault {}
extension BuildCommitDefault {
    static var commit: String { "unknown" }
}
