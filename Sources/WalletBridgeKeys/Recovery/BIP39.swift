import CNettle
import CSodium

/// BIP-39 recovery phrases with the English word list: entropy to words, typed words back to
/// entropy (checked), and words to the 64-byte seed that SLIP-0010 derives keys from.
///
/// A phrase is the wallet's master secret, so every form of it lives in `SecureBytes`: the
/// entropy, the phrase's bytes, the 11-bit word values, the checksum's hash, the seed. No word
/// ever becomes a `String`, and no error names one.
package enum BIP39 {
    /// The lengths BIP-39 defines: 128 to 256 bits of entropy in steps of 32, plus a checksum
    /// of one bit per 32, at 11 bits a word.
    package static let wordCounts = [12, 15, 18, 21, 24]

    /// What is wrong with a typed phrase or a passphrase. The messages never quote the phrase.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        /// The phrase has a number of words BIP-39 does not define.
        case wordCount(Int)
        /// The word at `position` (counted from 1) is not in the English list.
        case unknownWord(position: Int)
        /// Every word is in the list, but the checksum the last word carries does not match.
        case checksum
        /// The passphrase has a byte of 0x80 or more.
        case nonASCIIPassphrase

        package var description: String {
            switch self {
            case .wordCount(let count):
                "a recovery phrase has 12, 15, 18, 21 or 24 words; this one has \(count)"
            case .unknownWord(let position):
                "word \(position) is not in the BIP-39 English word list"
            case .checksum:
                "the phrase's checksum does not match: a word is wrong or the words are out of order"
            case .nonASCIIPassphrase:
                "the passphrase has a character outside ASCII: BIP-39 requires passphrases in Unicode "
                    + "NFKD form, and without Unicode tables (this build has no Foundation) wallet-bridge "
                    + "cannot normalize them, so it accepts ASCII passphrases only"
            }
        }
    }

    /// A new phrase of `wordCount` words from libsodium's CSPRNG (randombytes_buf), UTF-8 words
    /// separated by single spaces, in secure memory. Precondition: `wordCount` in `wordCounts`.
    package static func generate(wordCount: Int) -> SecureBytes {
        precondition(
            wordCounts.contains(wordCount), "a recovery phrase has 12, 15, 18, 21 or 24 words, not \(wordCount)")
        let entropy = SecureBytes(count: entropyBytes(wordCount: wordCount))
        entropy.withUnsafeMutableBytes { Sodium.randomBytes(into: $0) }
        return phrase(entropy: entropy)
    }

    /// The phrase for entropy of 16, 20, 24, 28 or 32 bytes (checksum = first ENT/32 bits of
    /// SHA-256), words separated by single spaces, in secure memory.
    package static func phrase(entropy: SecureBytes) -> SecureBytes {
        precondition(
            [16, 20, 24, 28, 32].contains(entropy.count),
            "BIP-39 entropy is 16, 20, 24, 28 or 32 bytes, not \(entropy.count)")
        let wordCount = entropy.count * 3 / 4
        // The bits the words carry: the entropy, then the checksum. The checksum is at most 8
        // bits, so the hash's first byte holds all of it; the bits past it are never read.
        let bits = SecureBytes(count: entropy.count + 1)
        let digest = sha256(entropy)
        bits.withUnsafeMutableBytes { bits in
            entropy.withUnsafeBytes { bits.copyMemory(from: $0) }
            bits[entropy.count] = digest.withUnsafeBytes { $0[0] }
        }
        return bits.withUnsafeBytes { bits in
            // Measured first, so the phrase is written once, straight into secure memory.
            var length = wordCount - 1
            for position in 0..<wordCount {
                length += englishWords[elevenBits(bits, at: position)].utf8.count
            }
            let phrase = SecureBytes(count: length)
            phrase.withUnsafeMutableBytes { out in
                var offset = 0
                for position in 0..<wordCount {
                    if position > 0 {
                        out[offset] = space
                        offset += 1
                    }
                    for byte in englishWords[elevenBits(bits, at: position)].utf8 {
                        out[offset] = byte
                        offset += 1
                    }
                }
            }
            return phrase
        }
    }

    /// Checks a typed phrase: any ASCII whitespace between words, any letter case; returns it
    /// normalized (lowercase, single spaces, no leading/trailing space), in secure memory.
    /// Checks word count, every word, and the checksum, in that order.
    package static func normalize(_ typed: SecureBytes) throws(Problem) -> SecureBytes {
        try typed.withUnsafeBytes { (typed) throws(Problem) -> SecureBytes in
            // Where the words are, not what they are: positions are no secret.
            let words = wordRanges(typed)
            guard wordCounts.contains(words.count) else { throw .wordCount(words.count) }
            let entropyCount = entropyBytes(wordCount: words.count)
            let bits = SecureBytes(count: entropyCount + 1)
            try bits.withUnsafeMutableBytes { (bits) throws(Problem) in
                for (offset, range) in words.enumerated() {
                    guard let value = wordValue(UnsafeRawBufferPointer(rebasing: typed[range])) else {
                        throw .unknownWord(position: offset + 1)
                    }
                    setElevenBits(bits, at: offset, to: value)
                }
            }
            let entropy = bits.prefix(entropyCount)
            let checksumBits = words.count / 3
            let expected = sha256(entropy).withUnsafeBytes { $0[0] } >> (8 - checksumBits)
            let found = bits.withUnsafeBytes { $0[entropyCount] } >> (8 - checksumBits)
            guard expected == found else { throw .checksum }
            // Spelling the entropy out again gives the canonical form by construction.
            return phrase(entropy: entropy)
        }
    }

    /// The 64-byte seed: PBKDF2-HMAC-SHA512(phrase, "mnemonic" + passphrase, 2048 iterations)
    /// via nettle. `phrase` is normalized (see `normalize`). Throws `nonASCIIPassphrase` for a
    /// passphrase with a byte >= 0x80: ASCII is the only text whose NFKD form is itself.
    ///
    /// nettle's `pbkdf2_hmac_sha512` keeps its HMAC context on its own stack and does not
    /// clear it; the inputs and the result here are all in secure memory.
    package static func seed(phrase: SecureBytes, passphrase: SecureBytes) throws(Problem) -> SecureBytes {
        guard passphrase.withUnsafeBytes({ $0.allSatisfy { $0 < 0x80 } }) else { throw .nonASCIIPassphrase }
        let saltPrefix = Array("mnemonic".utf8)
        // The salt holds the passphrase, so it is as secret as the passphrase.
        let salt = SecureBytes(count: saltPrefix.count + passphrase.count)
        salt.withUnsafeMutableBytes { salt in
            saltPrefix.withUnsafeBytes { salt.copyMemory(from: $0) }
            passphrase.withUnsafeBytes {
                UnsafeMutableRawBufferPointer(rebasing: salt[saltPrefix.count...]).copyMemory(from: $0)
            }
        }
        let seed = SecureBytes(count: seedBytes)
        seed.withUnsafeMutableBytes { out in
            phrase.withUnsafeBytes { phrase in
                salt.withUnsafeBytes { salt in
                    // SecureBytes always has a valid address, even when empty.
                    nettle_pbkdf2_hmac_sha512(
                        phrase.count, phrase.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        iterations,
                        salt.count, salt.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        out.count, out.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        return seed
    }

    /// BIP-39's fixed PBKDF2 parameters.
    private static let iterations: UInt32 = 2048
    private static let seedBytes = 64
    private static let space = UInt8(ascii: " ")

    /// 4 bytes of entropy for every 3 words (32 bits of entropy and 1 of checksum per 33).
    private static func entropyBytes(wordCount: Int) -> Int { wordCount / 3 * 4 }

    /// SHA-256 of a secret, into secure memory: its first bits are the checksum.
    private static func sha256(_ bytes: SecureBytes) -> SecureBytes {
        let digest = SecureBytes(count: Int(crypto_hash_sha256_BYTES))
        digest.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { input in
                _ = crypto_hash_sha256(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    input.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(input.count))
            }
        }
        return digest
    }

    /// The 11-bit value of word `position`: bits position*11 ..< position*11+11, most
    /// significant first.
    private static func elevenBits(_ bits: UnsafeRawBufferPointer, at position: Int) -> Int {
        var value = 0
        for bit in position * 11..<position * 11 + 11 {
            value = (value << 1) | Int((bits[bit >> 3] >> (7 - (bit & 7))) & 1)
        }
        return value
    }

    /// Writes `value` as the 11 bits of word `position`; the buffer starts zeroed.
    private static func setElevenBits(_ bits: UnsafeMutableRawBufferPointer, at position: Int, to value: Int) {
        for offset in 0..<11 where (value >> (10 - offset)) & 1 == 1 {
            let bit = position * 11 + offset
            bits[bit >> 3] |= 0x80 >> UInt8(bit & 7)
        }
    }

    /// The ranges of the words in `typed`, split at ASCII whitespace (space, tab, LF, VT, FF, CR).
    private static func wordRanges(_ typed: UnsafeRawBufferPointer) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (offset, byte) in typed.enumerated() {
            let isSpace = byte == space || (0x09...0x0D).contains(byte)
            if isSpace, let begun = start {
                ranges.append(begun..<offset)
                start = nil
            } else if !isSpace, start == nil {
                start = offset
            }
        }
        if let begun = start { ranges.append(begun..<typed.count) }
        return ranges
    }

    /// The word's position in the English list, matched without regard to ASCII case; nil when
    /// it is not there. A binary search over the list's bytes: the word is never copied.
    private static func wordValue(_ word: UnsafeRawBufferPointer) -> Int? {
        var low = 0
        var high = englishWords.count
        while low < high {
            let middle = (low + high) / 2
            let order = compareLowercased(word, englishWords[middle])
            if order == 0 { return middle }
            if order < 0 { high = middle } else { low = middle + 1 }
        }
        return nil
    }

    /// Negative, zero or positive as `word`, with A-Z read as a-z, sorts before, with or after
    /// `listed` in byte order (the list's order: all its words are lowercase ASCII).
    private static func compareLowercased(_ word: UnsafeRawBufferPointer, _ listed: String) -> Int {
        var index = 0
        for expected in listed.utf8 {
            guard index < word.count else { return -1 }
            var byte = word[index]
            if (0x41...0x5A).contains(byte) { byte += 0x20 }
            if byte != expected { return byte < expected ? -1 : 1 }
            index += 1
        }
        return index < word.count ? 1 : 0
    }
}
