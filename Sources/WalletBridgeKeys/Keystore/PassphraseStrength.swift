import WalletBridgeSystem
/// Refuses the passphrases that guessing tools try first, when a keystore or backup passphrase
/// is set or changed (`--allow-weak` skips it).
///
/// The keystore file can be copied and guessed against offline, with no lockout: Argon2id makes
/// each guess cost about a second, and these rules make sure the first million guesses do not
/// include the answer. They look for the patterns people reach for, not for entropy: a long
/// passphrase of unrelated words passes, however ordinary each word is.
///
/// The passphrase is read in place and folded to lowercase into temporary arrays that are zeroed
/// before they are released; it never becomes a `String` (only a single non-ASCII character at a
/// time, while it is lowercased), and no message quotes it.
package enum PassphraseStrength {
    /// The shortest passphrase accepted without --allow-weak, in Unicode scalars.
    ///
    /// 10: the other rules refuse the predictable passphrases of any length, so this one only
    /// has to put blind search out of reach. Ten random lowercase letters are about 47 bits: at
    /// Argon2id MODERATE (a second and 256 MiB per guess) that is millennia even for a GPU
    /// farm. It is two more than NIST SP 800-63B rev. 3's floor of 8, which assumes a verifier
    /// that limits attempts, and two or three short words with spaces reach it. NIST rev. 4's 15
    /// for single-factor passwords would refuse many passphrases people already use and type at
    /// every signature, and drive them to --allow-weak, which checks nothing.
    package static let minimumLength = 10

    /// Nil when `passphrase` is acceptable; otherwise one sentence saying which rule it breaks and
    /// what would pass, lowercase and without a full stop so the caller can embed it. It never
    /// quotes the passphrase, any part of it, or the label.
    ///
    /// `label`: the key's label when one is being created (nil otherwise). `dictionary`: extra
    /// words to treat as dictionary words (the caller passes the BIP-39 English list); matching
    /// is case-insensitive.
    package static func weakness(of passphrase: SecureBytes, label: String?, dictionary: [String] = []) -> String? {
        weakness(of: passphrase, label: label, dictionary: dictionary, systemWords: systemWords)
    }

    /// `weakness(of:label:dictionary:)` with the system word list given, so that tests can run
    /// both with and without one whatever the machine has.
    static func weakness(
        of passphrase: SecureBytes, label: String?, dictionary: [String], systemWords: Set<[Unicode.Scalar]>
    ) -> String? {
        // The only copy of the passphrase, zeroed on the way out; nothing else may hold a
        // reference to it, or the wipe would write to a fresh copy instead.
        var lowered: [Unicode.Scalar] = []
        defer { wipe(&lowered) }
        guard let length = passphrase.withUnsafeBytes({ lowercase($0, into: &lowered) }) else {
            // Not UTF-8: no rule about letters applies, so only its length is judged.
            return passphrase.count < minimumLength ? tooShort : nil
        }

        if length < minimumLength { return tooShort }

        // The label is stored unencrypted beside the key: a passphrase built from it is as good
        // as written down. (One equal to a label under 3 characters is already too short.)
        if let label {
            let name = lowercased(label.unicodeScalars)
            if name.count >= 3 && lowered.contains(name) {
                return "it contains the key's label; one that does not repeat the label would pass"
            }
            if name.contains(lowered) {
                return "it is part of the key's label; one that does not repeat the label would pass"
            }
        }

        if isPattern(lowered) {
            return "it repeats or runs through too few characters (like aaaa or 1234); "
                + "at least 5 different characters in no simple order would pass"
        }

        let extra = Set(dictionary.map { lowercased($0.unicodeScalars) })
        let isListed = { (word: [Unicode.Scalar]) in
            commonPasswords.contains(word) || extra.contains(word) || systemWords.contains(word)
        }
        if isSingleWord(lowered, isListed) {
            return "it is a single dictionary word (with digits or symbols around it); "
                + "several unrelated words separated by spaces would pass"
        }
        return nil
    }

    private static var tooShort: String {
        "it is shorter than \(minimumLength) characters; \(minimumLength) or more would pass, for example a few unrelated words"
    }

    // MARK: Repeats and runs

    /// Fewer than 5 distinct characters, one piece said again and again, or a run along the
    /// alphabet, the digits or a keyboard row. Spaces are ignored for the last two, so that
    /// "horse horse horse" and "a b c d e f" count.
    private static func isPattern(_ text: [Unicode.Scalar]) -> Bool {
        var distinct: [Unicode.Scalar] = []
        defer { wipe(&distinct) }
        for scalar in text where !distinct.contains(scalar) {
            distinct.append(scalar)
            if distinct.count == 5 { break }
        }
        if distinct.count < 5 { return true }

        // Positions rather than a copy, so that no second array holds the passphrase.
        let kept = text.indices.filter { !text[$0].properties.isWhitespace }
        guard kept.count >= 2 else { return true }
        let at = { (i: Int) in text[kept[i]] }

        // "abcabcabc", "passwordpassword": some prefix, at least twice over.
        for period in 1...(kept.count / 2) where (period..<kept.count).allSatisfy({ at($0) == at($0 - period) }) {
            return true
        }

        // "abcdefghij", "acegikmoqs", "zyxwvutsrq": the same step between every pair of code points.
        let step = Int(at(1).value) - Int(at(0).value)
        if (2..<kept.count).allSatisfy({ Int(at($0).value) - Int(at($0 - 1).value) == step }) { return true }

        // "1234567890", "poiuytrewq", "xyzabcdefg": one key to the next along a row, wrapping round.
        for track in tracks {
            for direction in [1, -1] {
                let follows = (1..<kept.count).allSatisfy { i in
                    guard let previous = track.firstIndex(of: at(i - 1)), let next = track.firstIndex(of: at(i)) else {
                        return false
                    }
                    return next == (previous + direction + track.count) % track.count
                }
                if follows { return true }
            }
        }
        return false
    }

    private static let tracks: [[Unicode.Scalar]] = [
        "abcdefghijklmnopqrstuvwxyz", "0123456789", "qwertyuiop", "asdfghjkl", "zxcvbnm",
    ].map { Array($0.unicodeScalars) }

    // MARK: Dictionary words

    /// Whether the passphrase, once the digits and symbols around it are taken off and the
    /// usual look-alike substitutions undone, is one listed word.
    ///
    /// A substituted letter at either end ("4dmin", "$unshine") looks like the digits and
    /// symbols being taken off, so the word is also tried grown back by up to 4 such characters
    /// on each side. A space in the middle makes it several words, which pass: no list has them.
    private static func isSingleWord(_ text: [Unicode.Scalar], _ isListed: ([Unicode.Scalar]) -> Bool) -> Bool {
        // Entries with digits ("abc123", "123456789") must still be found, so the symbols alone
        // are taken off first, then the digits as well.
        guard
            let alphanumeric = trimmed(
                text, keeping: { $0.properties.isAlphabetic || $0.properties.numericType != nil })
        else { return false }
        var starts = [alphanumeric.lowerBound]
        var ends = [alphanumeric.upperBound]
        if let letters = trimmed(text, keeping: { $0.properties.isAlphabetic }) {
            var start = letters.lowerBound
            starts.append(start)
            while start > 0, letters.lowerBound - start < 4, isSubstitute(text[start - 1]) {
                start -= 1
                starts.append(start)
            }
            var end = letters.upperBound
            ends.append(end)
            while end < text.count, end - letters.upperBound < 4, isSubstitute(text[end]) {
                end += 1
                ends.append(end)
            }
        }
        for start in starts {
            for end in ends where end - start >= 3 && matches(text[start..<end], isListed) { return true }
        }
        return false
    }

    /// Whether `candidate` is listed, as it is or with each look-alike replaced by its letter. A 1
    /// may stand for i or l, so every mix is tried for up to 4 of them and, beyond that, all-i
    /// and all-l.
    private static func matches(_ candidate: ArraySlice<Unicode.Scalar>, _ isListed: ([Unicode.Scalar]) -> Bool) -> Bool
    {
        var word = Array(candidate)
        defer { wipe(&word) }
        if isListed(word) { return true }
        guard word.contains(where: isSubstitute) else { return false }
        for i in word.indices { if let letter = substitutions[word[i]] { word[i] = letter } }
        let ones = word.indices.filter { word[$0] == "1" }
        let mixes = ones.count <= 4 ? 1 << ones.count : 2
        for mix in 0..<mixes {
            for (bit, i) in ones.enumerated() {
                let choice = ones.count <= 4 ? (mix >> bit) & 1 : mix
                word[i] = choice == 0 ? "i" : "l"
            }
            if isListed(word) { return true }
        }
        return false
    }

    private static let substitutions: [Unicode.Scalar: Unicode.Scalar] = [
        "0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s",
    ]

    private static func isSubstitute(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "1" || substitutions[scalar] != nil
    }

    /// The range of `text` from the first to the last scalar that `keeping` accepts; nil when
    /// there is none.
    private static func trimmed(_ text: [Unicode.Scalar], keeping: (Unicode.Scalar) -> Bool) -> Range<Int>? {
        guard let first = text.firstIndex(where: keeping), let last = text.lastIndex(where: keeping) else { return nil }
        return first..<(last + 1)
    }

    /// The passwords and keyboard walks at the top of every breach list and guessing tool,
    /// plus a few that a wallet's owner is drawn to. Digits and symbols around them, and
    /// look-alike substitutions, are undone before the lookup, so "Passw0rd2024!" needs no entry.
    private static let commonPasswords: Set<[Unicode.Scalar]> = Set(
        """
        password passw0rd passphrase mypassword letmein iloveyou admin administrator welcome \
        monkey dragon football baseball basketball soccer hockey sunshine princess trustno1 \
        abc123 123456789 1234567890 0987654321 987654321 11111111 123123123 147258369 \
        159753 741852963 qwerty qwertyuiop qwertyui asdfgh asdfghjkl zxcvbn zxcvbnm qazwsx \
        1qaz2wsx zaq12wsx 1q2w3e4r 1q2w3e4r5t qwe123 123qwe qweasdzxc master shadow superman \
        batman starwars pokemon naruto whatever freedom secret changeme default login access \
        hello helloworld loveme lovely iloveu michael jennifer jordan hunter hunter2 charlie \
        computer internet cookie cheese pepper ginger tigger buster killer mustang harley \
        summer winter flower purple orange banana chocolate butterfly liverpool arsenal \
        chelsea samsung google qwerty123 bitcoin ethereum solana satoshi crypto wallet \
        metamask phantom ledger tothemoon walletbridge correcthorsebatterystaple
        """.split(separator: " ").map { Array($0.unicodeScalars) })

    // MARK: The system word list

    /// /usr/share/dict/words, lowercased; empty when the file is absent. Read once, on first
    /// use (a static `let` is initialized lazily and exactly once).
    private static let systemWords = words(inFile: "/usr/share/dict/words")

    /// The words in the file at `path`, one a line, lowercased; empty when it is absent,
    /// unreadable, not a regular file, or longer than `maxBytes`. Debian's largest English list
    /// ("insane") is about 7 MB; the usual one is 1 MB.
    static func words(inFile path: String, maxBytes: Int = 8 << 20) -> Set<[Unicode.Scalar]> {
        guard let bytes = try? AtomicFile.read(path, maxBytes: maxBytes) else { return [] }
        var words = Set<[Unicode.Scalar]>()
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            // Lists hold every letter of the alphabet and many two-letter abbreviations: as
            // "dictionary words" they would refuse "x" followed by 9 random symbols.
            let word = lowercased(String(decoding: text, as: UTF8.self).unicodeScalars)
            if word.count >= 3 { words.insert(word) }
        }
        return words
    }

    // MARK: Lowercasing in place

    /// Appends the UTF-8 in `bytes` to `scalars` in lowercase and returns the number of scalars
    /// before lowercasing (which may add some); nil when it is not valid UTF-8.
    private static func lowercase(_ bytes: UnsafeRawBufferPointer, into scalars: inout [Unicode.Scalar]) -> Int? {
        // Sized up front: growing would leave copies behind in freed memory.
        scalars.reserveCapacity(bytes.count + 8)
        var length = 0
        var input = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&input) {
            case .scalarValue(let scalar):
                appendLowercased(scalar, to: &scalars)
                length += 1
            case .emptyInput:
                return length
            case .error:
                return nil
            }
        }
    }

    private static func lowercased(_ scalars: String.UnicodeScalarView) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        for scalar in scalars { appendLowercased(scalar, to: &result) }
        return result
    }

    private static func appendLowercased(_ scalar: Unicode.Scalar, to result: inout [Unicode.Scalar]) {
        if scalar.isASCII {
            result.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(UInt8(scalar.value) + 32) : scalar)
        } else {
            // At most a few scalars: a small string, held inline rather than on the heap.
            result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
    }

    /// Overwrites `scalars` before the array is released, so the passphrase does not linger in
    /// freed memory.
    private static func wipe(_ scalars: inout [Unicode.Scalar]) {
        for i in scalars.indices { scalars[i] = "\0" }
    }
}
