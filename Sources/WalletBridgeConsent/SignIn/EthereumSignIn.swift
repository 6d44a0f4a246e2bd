import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeProtocol

/// A Sign-In with Ethereum message (EIP-4361), read by the EIP's ABNF:
///
///     [ scheme "://" ] domain " wants you to sign in with your Ethereum account:" LF
///     address LF
///     LF
///     [ statement LF ]
///     LF
///     "URI: " uri LF
///     "Version: " version LF
///     "Chain ID: " chain-id LF
///     "Nonce: " nonce LF
///     "Issued At: " issued-at
///     [ LF "Expiration Time: " expiration-time ]
///     [ LF "Not Before: " not-before ]
///     [ LF "Request ID: " request-id ]
///     [ LF "Resources:" *( LF "- " URI ) ]
///
/// Nothing else: no trailing line break, no CR. Where the grammar leaves a choice to the
/// reader, this one takes the stricter: the address's "0x" in lower case, a statement of at
/// least one character (an empty one is left out), and a mixed-case address only with its
/// EIP-55 checksum (the EIP's comment on `address`).
package struct EthereumSignIn: Equatable, Sendable {
    package var scheme: String?
    package var domain: String
    package var address: EthereumAddress
    package var statement: String?
    package var uri: String
    package var version: String
    /// Decimal digits, as written (the grammar bounds neither their count nor leading zeros).
    package var chainID: String
    package var nonce: String
    package var issuedAt: String
    package var expirationTime: String?
    package var notBefore: String?
    package var requestID: String?
    /// Nil when the message has no "Resources:" line; empty when it has one and no resource.
    package var resources: [String]?

    /// What ends the first line.
    static let title = " wants you to sign in with your Ethereum account:"
    /// What makes a message read as a sign-in to a person, and so what the wallet warns about
    /// when the message is not a well-formed one (EIP-4361, "Verifying the Message Format").
    static let marker = "wants you to sign in with your Ethereum account"
    /// The longest text read: a sign-in is a few hundred bytes; past this it is shown as the
    /// plain text it then is, with the notice.
    static let maxBytes = 16 * 1024

    /// What a `personal_sign` message is to the dialog.
    package enum Reading: Equatable, Sendable {
        /// A well-formed sign-in.
        case signIn(EthereumSignIn)
        /// It reads as a sign-in to a person (`marker`) but is not one by the grammar: what is wrong.
        case malformed(String)
        /// Anything else.
        case other
    }

    /// How `message` (the bytes `personal_sign` signs) reads.
    package static func read(_ message: [UInt8]) -> Reading {
        guard let text = String(validating: message, as: UTF8.self), text.contains(marker) else { return .other }
        guard message.count <= maxBytes else {
            return .malformed("longer than \(DisplayText.grouped(maxBytes)) bytes")
        }
        do throws(SyntaxError) {
            return .signIn(try EthereumSignIn(parsing: text))
        } catch {
            return .malformed(error.problem)
        }
    }

    /// Why a text is not a sign-in: which line, and what it should be. Words of the wallet's
    /// own only, never the text's.
    package struct SyntaxError: Error, Equatable, Sendable {
        package var problem: String
        init(_ line: Int, _ problem: String) { self.problem = "line \(line) \(problem)" }
    }

    package init(parsing text: String) throws(SyntaxError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { ArraySlice(Array($0.utf8)) }
        // The usual slip, named as such rather than as the field it would have to be.
        if text.hasSuffix("\n") {
            throw SyntaxError(
                lines.count, "is empty: the message ends with a line break, which EIP-4361 does not allow")
        }
        var number = 0
        func line(_ expected: String) throws(SyntaxError) -> ArraySlice<UInt8> {
            guard number < lines.count else { throw SyntaxError(number + 1, "is missing: expected \(expected)") }
            number += 1
            return lines[number - 1]
        }
        func field(_ label: String) throws(SyntaxError) -> String {
            let text = try line("\"\(label)…\"")
            guard text.starts(with: label.utf8) else { throw SyntaxError(number, "should start with \"\(label)\"") }
            return String(decoding: text.dropFirst(label.utf8.count), as: UTF8.self)
        }
        func optionalField(_ label: String) -> String? {
            guard number < lines.count, lines[number].starts(with: label.utf8) else { return nil }
            number += 1
            return String(decoding: lines[number - 1].dropFirst(label.utf8.count), as: UTF8.self)
        }

        // [ scheme "://" ] domain " wants you to sign in with your Ethereum account:"
        let first = try line("the title")
        guard first.count > Self.title.utf8.count, first.reversed().starts(with: Self.title.utf8.reversed()) else {
            throw SyntaxError(1, "should be \"<domain>\(Self.title)\"")
        }
        var origin = first.dropLast(Self.title.utf8.count)
        if let separator = origin.firstRange(of: "://".utf8) {
            guard SignInSyntax.isScheme(origin[..<separator.lowerBound]) else {
                throw SyntaxError(1, "has a scheme that is not one")
            }
            scheme = String(decoding: origin[..<separator.lowerBound], as: UTF8.self)
            origin = origin[separator.upperBound...]
        }
        guard !origin.isEmpty, SignInSyntax.isAuthority(origin) else {
            throw SyntaxError(1, "has a domain that is not an RFC 3986 authority (host and optional port)")
        }
        domain = String(decoding: origin, as: UTF8.self)

        // address LF LF
        let addressLine = try line("the address")
        guard addressLine.count == 42, addressLine.starts(with: "0x".utf8),
            addressLine.dropFirst(2).allSatisfy(SignInSyntax.isHexDigit)
        else { throw SyntaxError(2, "should be the address: 0x and 40 hex digits") }
        guard let address = EthereumAddress(String(decoding: addressLine, as: UTF8.self)) else {
            throw SyntaxError(2, "has an address whose mixed letter case is not its EIP-55 checksum")
        }
        self.address = address
        guard try line("an empty line").isEmpty else { throw SyntaxError(3, "should be empty") }

        // [ statement LF ] LF
        let afterBlank = try line("a statement or an empty line")
        if !afterBlank.isEmpty {
            guard
                afterBlank.allSatisfy({
                    SignInSyntax.isReserved($0) || SignInSyntax.isUnreserved($0) || $0 == UInt8(ascii: " ")
                })
            else {
                throw SyntaxError(
                    number, "is a statement with a character EIP-4361 does not allow (only printable ASCII, no %)")
            }
            statement = String(decoding: afterBlank, as: UTF8.self)
            guard try line("an empty line").isEmpty else {
                throw SyntaxError(number, "should be empty (after the statement)")
            }
        }

        uri = try field("URI: ")
        guard SignInSyntax.isURI(uri) else { throw SyntaxError(number, "has a URI that is not an RFC 3986 URI") }
        version = try field("Version: ")
        guard version == "1" else { throw SyntaxError(number, "should be \"Version: 1\"") }
        chainID = try field("Chain ID: ")
        guard !chainID.isEmpty, chainID.utf8.allSatisfy(CAIPSyntax.isDigit) else {
            throw SyntaxError(number, "should be the chain id in decimal digits")
        }
        nonce = try field("Nonce: ")
        guard nonce.utf8.count >= 8, nonce.utf8.allSatisfy({ SignInSyntax.isAlpha($0) || CAIPSyntax.isDigit($0) })
        else {
            throw SyntaxError(number, "should be a nonce of at least 8 letters and digits")
        }
        issuedAt = try field("Issued At: ")
        guard SignInSyntax.isDateTime(issuedAt) else { throw SyntaxError(number, "should be an RFC 3339 date-time") }
        expirationTime = optionalField("Expiration Time: ")
        if let expirationTime, !SignInSyntax.isDateTime(expirationTime) {
            throw SyntaxError(number, "should be an RFC 3339 date-time")
        }
        notBefore = optionalField("Not Before: ")
        if let notBefore, !SignInSyntax.isDateTime(notBefore) {
            throw SyntaxError(number, "should be an RFC 3339 date-time")
        }
        requestID = optionalField("Request ID: ")
        if let requestID, !SignInSyntax.isEncoded(ArraySlice(Array(requestID.utf8)), SignInSyntax.isPathByte) {
            throw SyntaxError(number, "has a request id with a character EIP-4361 does not allow")
        }
        if number < lines.count, lines[number] == ArraySlice("Resources:".utf8) {
            number += 1
            var resources: [String] = []
            while number < lines.count {
                let resource = lines[number]
                number += 1
                guard resource.starts(with: "- ".utf8),
                    SignInSyntax.isURI(String(decoding: resource.dropFirst(2), as: UTF8.self))
                else { throw SyntaxError(number, "should be a resource: \"- \" and an RFC 3986 URI") }
                resources.append(String(decoding: resource.dropFirst(2), as: UTF8.self))
            }
            self.resources = resources
        }
        guard number == lines.count else {
            throw SyntaxError(number + 1, "is not a field EIP-4361 allows here (or the fields are out of order)")
        }
    }
}
