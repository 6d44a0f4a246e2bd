import Foundation
import WalletBridgeTesting

extension HostProcess {
    /// The path of an executable of this package, built beside the test bundle; an error that
    /// says to build first when it is not there.
    static func executable(_ name: String) throws -> String {
        let path = BuiltProducts.path(name)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure.spawnFailed("\(path) is missing: run `swift build` before `swift test`")
        }
        return path
    }
}
