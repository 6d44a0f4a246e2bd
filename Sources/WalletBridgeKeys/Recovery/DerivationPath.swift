/// A BIP-32 derivation path, such as m/44'/501'/0'/0': the child indices from the master key
/// down, a hardened index carrying the top bit (2^31 + n is written n').
package struct DerivationPath: Sendable, Hashable, CustomStringConvertible {
    /// The bit that marks a hardened index.
    package static let hardened: UInt32 = 0x8000_0000
    /// BIP-32 records a key's depth in one byte. It also bounds the work a path read from
    /// outside can ask for: one HMAC per index.
    private static let maximumDepth = 255

    /// The indices from the master key down; hardened ones carry `hardened`.
    package let indices: [UInt32]

    /// Why a text is not a derivation path. Positions count the indices after `m` from 1.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        /// The text does not start with `m`, followed by `/` or nothing.
        case missingRoot
        /// Nothing between two slashes, or after the last one.
        case emptyIndex(position: Int)
        /// Not decimal digits below 2^31, optionally followed by `'`, `h` or `H`.
        case invalidIndex(position: Int, text: String)
        /// More indices than BIP-32's one-byte depth allows.
        case tooDeep(count: Int)

        package var description: String {
            switch self {
            case .missingRoot:
                "a derivation path must start with m/, as in m/44'/501'/0'/0'"
            case .emptyIndex(let position):
                "index \(position) of the derivation path is empty: a slash with no number after it"
            case .invalidIndex(let position, let text):
                "index \(position) (\"\(text)\") is not a number below 2^31 (with ' after it when hardened)"
            case .tooDeep(let count):
                "a derivation path has at most \(DerivationPath.maximumDepth) indices; this one has \(count)"
            }
        }
    }

    /// A path of these indices, hardened ones carrying `hardened`.
    package init(indices: [UInt32]) {
        self.indices = indices
    }

    /// Parses "m/44'/501'/0'/0'". `h` or `H` may stand for `'`; "m" alone is the master key.
    package init(parsing text: String) throws(Problem) {
        var components = text.split(separator: "/", omittingEmptySubsequences: false)
        guard components.first == "m" else { throw .missingRoot }
        components.removeFirst()
        guard components.count <= Self.maximumDepth else { throw .tooDeep(count: components.count) }
        var indices: [UInt32] = []
        indices.reserveCapacity(components.count)
        for (offset, component) in components.enumerated() {
            guard !component.isEmpty else { throw .emptyIndex(position: offset + 1) }
            var digits = component
            var flag: UInt32 = 0
            if let last = digits.last, last == "'" || last == "h" || last == "H" {
                digits = digits.dropLast()
                flag = Self.hardened
            }
            // UInt32(_:) alone would take a leading "+".
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = UInt32(digits), value < Self.hardened
            else { throw .invalidIndex(position: offset + 1, text: String(component)) }
            indices.append(value | flag)
        }
        self.indices = indices
    }

    /// The path Solana wallets (Phantom, Solflare, solana-keygen's `prompt://?key=N/0`) use for
    /// account `account`: m/44'/501'/account'/0'. Precondition: `account` < 2^31.
    package static func solana(account: UInt32) -> DerivationPath {
        precondition(account < hardened, "a BIP-32 index is below 2^31")
        return DerivationPath(indices: [44 | hardened, 501 | hardened, account | hardened, 0 | hardened])
    }

    /// m/44'/501'/0'/0', the first account of a Solana wallet.
    package static let solanaDefault = solana(account: 0)

    /// The path Ethereum wallets (MetaMask, Ledger Live's default) use for address `index`:
    /// m/44'/60'/0'/0/index, BIP-44 with its last two indices not hardened.
    /// Precondition: `index` < 2^31.
    package static func ethereum(index: UInt32) -> DerivationPath {
        precondition(index < hardened, "a BIP-32 index is below 2^31")
        return DerivationPath(indices: [44 | hardened, 60 | hardened, 0 | hardened, 0, index])
    }

    /// The path as text, hardened indices with `'`: m/44'/501'/0'/0'.
    package var description: String {
        var text = "m"
        for index in indices {
            text += "/\(index & ~Self.hardened)"
            if index & Self.hardened != 0 { text += "'" }
        }
        return text
    }

    /// True when every index is hardened, as Ed25519 derivation (SLIP-0010) requires.
    package var isAllHardened: Bool { indices.allSatisfy { $0 & Self.hardened != 0 } }
}
