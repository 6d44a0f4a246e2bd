import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys

/// EIP-712 typed data as eth_signTypedData_v4 receives it: the EIP's own example, vectors that
/// eth-account computed, the bounds on hostile input, and every malformed case refused with
/// -32602 naming its field.
final class EIP712Tests: XCTestCase {
    /// Where the tests' typed data sits, as the method handler passes it.
    private let at = "request.params[1]"

    // MARK: The EIP's example

    /// eip712.js and Example.sol of EIP-712, with the values the EIP gives.
    static let mail = #"""
        {
          "types": {
            "EIP712Domain": [
              {"name":"name","type":"string"},{"name":"version","type":"string"},
              {"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}
            ],
            "Person": [{"name":"name","type":"string"},{"name":"wallet","type":"address"}],
            "Mail": [{"name":"from","type":"Person"},{"name":"to","type":"Person"},{"name":"contents","type":"string"}]
          },
          "primaryType": "Mail",
          "domain": {"name":"Ether Mail","version":"1","chainId":1,"verifyingContract":"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
          "message": {
            "from": {"name":"Cow","wallet":"0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
            "to": {"name":"Bob","wallet":"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
            "contents": "Hello, Bob!"
          }
        }
        """#

    func testMailEncodeTypeAndTypeHash() throws {
        let types = try EIP712Types(parsing: json(Self.mail).objectValue?["types"], field: "types")
        XCTAssertEqual(
            types.encodeType("Mail"), "Mail(Person from,Person to,string contents)Person(string name,address wallet)")
        XCTAssertEqual(
            Hex.encode(Keccak256.hash(types.encodeType("Mail").utf8)),
            "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2")
        XCTAssertEqual(types.encodeType("Person"), "Person(string name,address wallet)")
    }

    func testMailHashes() throws {
        let typed = try typedData(Self.mail)
        XCTAssertEqual(typed.primaryType, "Mail")
        XCTAssertEqual(
            Hex.encode(typed.domainSeparator), "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f")
        XCTAssertEqual(
            typed.messageHash.map(Hex.encode), "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e")
        XCTAssertEqual(Hex.encode(typed.digest), "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2")
    }

    func testMailFlattenedMessageAndDomain() throws {
        let typed = try typedData(Self.mail)
        assertLines(
            typed.flattenedMessage(),
            [
                ("from.name", "Cow"),
                ("from.wallet", "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"),
                ("to.name", "Bob"),
                ("to.wallet", "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"),
                ("contents", "Hello, Bob!"),
            ])
        XCTAssertEqual(
            typed.domain,
            TypedData.Domain(
                name: "Ether Mail", version: "1", chainId: "1",
                verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"))
    }

    /// MetaMask sends the typed data as a string of its JSON.
    func testStringOfJSONReadsAsTheObject() throws {
        let typed = try TypedData(parsing: .string(Self.mail), field: at)
        XCTAssertEqual(Hex.encode(typed.digest), "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2")
        XCTAssertEqual(typed.flattenedMessage().count, 5)
    }

    // MARK: Vectors from eth-account

    struct Vector {
        let json: String
        /// encodeType of the primary type; nil when it is EIP712Domain.
        let encodeType: String?
        let domainSeparator: String
        let messageHash: String?
        let digest: String
    }

    // Computed by eth-account 0.14.0 (PyPI, in a scratch virtualenv) from these very documents:
    // encode_type and hash_struct of eth_account._utils.encode_typed_data, and the digest as
    // keccak(0x19 0x01 ‖ domain ‖ message). For atoms, arrays and cyclic the digest is also what
    // encode_typed_data(full_message=...) gives; eth-account's top level refuses the last two
    // (a domain field it does not know, and primaryType EIP712Domain), which the EIP and
    // MetaMask allow, so theirs come from hash_struct alone.

    static let atoms = Vector(
        json: #"""
            {
              "types": {
                "EIP712Domain": [{"name":"chainId","type":"uint256"}],
                "Atoms": [
                  {"name":"flag","type":"bool"},{"name":"off","type":"bool"},{"name":"who","type":"address"},
                  {"name":"u8","type":"uint8"},{"name":"u32hex","type":"uint32"},{"name":"u256","type":"uint256"},
                  {"name":"u256text","type":"uint256"},{"name":"i8","type":"int8"},{"name":"i64","type":"int64"},
                  {"name":"i256","type":"int256"},{"name":"i128pos","type":"int128"},{"name":"b1","type":"bytes1"},
                  {"name":"b16","type":"bytes16"},{"name":"b32","type":"bytes32"},{"name":"blob","type":"bytes"},
                  {"name":"empty","type":"bytes"},{"name":"text","type":"string"},{"name":"blank","type":"string"}
                ]
              },
              "primaryType": "Atoms",
              "domain": {"chainId":"0x89"},
              "message": {
                "flag": true,
                "off": false,
                "who": "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
                "u8": 255,
                "u32hex": "0xdeadbeef",
                "u256": 115792089237316195423570985008687907853269984665640564039457584007913129639935,
                "u256text": "1000000000000000000000",
                "i8": -128,
                "i64": "-9223372036854775808",
                "i256": -1,
                "i128pos": "170141183460469231731687303715884105727",
                "b1": "0xff",
                "b16": "0x000102030405060708090a0b0c0d0e0f",
                "b32": "0xfedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210",
                "blob": "0xcafebabe00",
                "empty": "0x",
                "text": "héllo, wörld ✓",
                "blank": ""
              }
            }
            """#,
        encodeType: "Atoms(bool flag,bool off,address who,uint8 u8,uint32 u32hex,uint256 u256,uint256 u256text,int8 i8,"
            + "int64 i64,int256 i256,int128 i128pos,bytes1 b1,bytes16 b16,bytes32 b32,bytes blob,bytes empty,"
            + "string text,string blank)",
        domainSeparator: "0f36ac79126b93ead2d733b9e11d4778e4cd7ced7ec0a48c4843b51d32055cc1",
        messageHash: "57075c4f249cdb09f0e21fcafaeaae40941ff1f28635917c312586dbf57809e3",
        digest: "989accd9a78ae0d3757b7e72373207ed06b07858e95052433578109e56a2784d"
    )

    static let arrays = Vector(
        json: #"""
            {
              "types": {
                "EIP712Domain": [
                  {"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"},
                  {"name":"verifyingContract","type":"address"},{"name":"salt","type":"bytes32"}
                ],
                "Item": [{"name":"token","type":"address"},{"name":"amount","type":"uint256"},{"name":"tags","type":"string[]"}],
                "Order": [
                  {"name":"maker","type":"address"},{"name":"items","type":"Item[]"},{"name":"amounts","type":"uint256[]"},
                  {"name":"notes","type":"string[]"},{"name":"blobs","type":"bytes[]"},{"name":"flags","type":"bool[]"},
                  {"name":"matrix","type":"uint8[][]"},{"name":"pairs","type":"int16[2][]"},{"name":"grid","type":"Item[][]"},
                  {"name":"none","type":"uint256[]"},{"name":"fixedItems","type":"Item[2]"},{"name":"owners","type":"address[3]"}
                ]
              },
              "primaryType": "Order",
              "domain": {
                "name": "Exchange",
                "version": "2",
                "chainId": 10,
                "verifyingContract": "0x1111111111111111111111111111111111111111",
                "salt": "0x2222222222222222222222222222222222222222222222222222222222222222"
              },
              "message": {
                "maker": "0x0000000000000000000000000000000000000001",
                "items": [
                  {"token":"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC","amount":"0x0de0b6b3a7640000","tags":["a","b"]},
                  {"token":"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB","amount":2,"tags":[]}
                ],
                "amounts": [1,"2","0x03"],
                "notes": ["one","two",""],
                "blobs": ["0x","0x01","0xabcdef"],
                "flags": [true,false,true],
                "matrix": [[1,2,3],[],[255]],
                "pairs": [[-1,1],[-32768,32767]],
                "grid": [[{"token":"0x0000000000000000000000000000000000000002","amount":0,"tags":["x"]}],[]],
                "none": [],
                "fixedItems": [
                  {"token":"0x0000000000000000000000000000000000000003","amount":3,"tags":[]},
                  {"token":"0x0000000000000000000000000000000000000004","amount":4,"tags":["y","z"]}
                ],
                "owners": [
                  "0x0000000000000000000000000000000000000005",
                  "0x0000000000000000000000000000000000000006",
                  "0x0000000000000000000000000000000000000007"
                ]
              }
            }
            """#,
        encodeType: "Order(address maker,Item[] items,uint256[] amounts,string[] notes,bytes[] blobs,bool[] flags,"
            + "uint8[][] matrix,int16[2][] pairs,Item[][] grid,uint256[] none,Item[2] fixedItems,"
            + "address[3] owners)Item(address token,uint256 amount,string[] tags)",
        domainSeparator: "5024e0df0c3c242b1fc9fde0bc6c88161daf5cd6c9b4a6e23cee07c7d9da2d63",
        messageHash: "d59a554245a90ffa12293c051cd7fb4c8537258caa19461dc048323743be25a8",
        digest: "fa56db9b586f7af5d4c4edf6ae1e4c8279807d7fe1f8e449c12d65260912b98d"
    )

    static let cyclic = Vector(
        json: #"""
            {
              "types": {
                "EIP712Domain": [{"name":"name","type":"string"}],
                "Node": [{"name":"label","type":"string"},{"name":"children","type":"Node[]"}]
              },
              "primaryType": "Node",
              "domain": {"name":"Tree"},
              "message": {
                "label": "root",
                "children": [{"label":"a","children":[{"label":"a1","children":[]}]},{"label":"b","children":[]}]
              }
            }
            """#,
        encodeType: "Node(string label,Node[] children)",
        domainSeparator: "51d0e5b770069f27cfdeb3a9506583832196c905e51939a7871a58ee8e3b626f",
        messageHash: "e7e644e0630a2c5cc5ee61bc98db710b6c26079bc5d28f2315fe6697d95c218e",
        digest: "9d55fb0cfab076b63b59a9c47b5ca4c526993bbb1e6c2058ab38f98647e3012f"
    )

    static let oddDomain = Vector(
        json: #"""
            {
              "types": {
                "EIP712Domain": [
                  {"name":"salt","type":"bytes32"},{"name":"chainId","type":"uint256"},{"name":"app","type":"string"}
                ],
                "Ping": [{"name":"n","type":"uint64"}]
              },
              "primaryType": "Ping",
              "domain": {"salt":"0x00000000000000000000000000000000000000000000000000000000000000ff","chainId":"5","app":"demo"},
              "message": {
                "n": 7
              }
            }
            """#,
        encodeType: "Ping(uint64 n)",
        domainSeparator: "59ea8c75a02d4ef4c03afa2c8ace7663581e5af19d668f63bae20c396323cda2",
        messageHash: "cffab8242ded10d27aae1235f6bf92e66f9eb204cedebb99bd9b8004ff8371d4",
        digest: "1f32370031040916480e3d5ccecfc38b523653d0ec9f0cef926d0e6687d12d74"
    )

    static let domainOnly = Vector(
        json: #"""
            {
              "types": {
                "EIP712Domain": [{"name":"name","type":"string"},{"name":"chainId","type":"uint256"}]
              },
              "primaryType": "EIP712Domain",
              "domain": {"name":"Only","chainId":1},
              "message": {}
            }
            """#,
        encodeType: nil,
        domainSeparator: "80a8e6773c3f0990497b503636f5eb482cdb03abbfa502a8f7d7c27150db1fbf",
        messageHash: nil,
        digest: "63b8abb5c6ebc7b161b640c4a8aca7c0cc67ec4a53b9ae22176eacacf8f8284b"
    )

    func testEthAccountVectors() throws {
        for (name, vector) in [
            ("atoms", Self.atoms), ("arrays", Self.arrays), ("cyclic", Self.cyclic),
            ("oddDomain", Self.oddDomain), ("domainOnly", Self.domainOnly),
        ] {
            let typed = try typedData(vector.json)
            XCTAssertEqual(Hex.encode(typed.domainSeparator), vector.domainSeparator, name)
            XCTAssertEqual(typed.messageHash.map(Hex.encode), vector.messageHash, name)
            XCTAssertEqual(Hex.encode(typed.digest), vector.digest, name)
            if let encodeType = vector.encodeType {
                let types = try EIP712Types(parsing: json(vector.json).objectValue?["types"], field: "types")
                XCTAssertEqual(types.encodeType(typed.primaryType), encodeType, name)
            }
            // The string form MetaMask sends reads the same.
            XCTAssertEqual(try TypedData(parsing: .string(vector.json), field: at).digest, typed.digest, name)
        }
    }

    func testEveryElementaryTypeIsShownAsText() throws {
        let typed = try typedData(Self.atoms.json)
        assertLines(
            typed.flattenedMessage(),
            [
                ("flag", "true"), ("off", "false"),
                ("who", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
                ("u8", "255"), ("u32hex", "3735928559"),
                ("u256", "115792089237316195423570985008687907853269984665640564039457584007913129639935"),
                ("u256text", "1000000000000000000000"),
                ("i8", "-128"), ("i64", "-9223372036854775808"), ("i256", "-1"),
                ("i128pos", "170141183460469231731687303715884105727"),
                ("b1", "0xff"), ("b16", "0x000102030405060708090a0b0c0d0e0f"),
                ("b32", "0xfedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"),
                ("blob", "0xcafebabe00"), ("empty", "0x"),
                ("text", "héllo, wörld ✓"), ("blank", ""),
            ])
        // A domain of chainId alone, given in hex: shown in decimal.
        XCTAssertEqual(typed.domain, TypedData.Domain(chainId: "137"))
    }

    func testArraysAreFlattenedElementByElement() throws {
        let typed = try typedData(Self.arrays.json)
        assertLines(
            typed.flattenedMessage(),
            [
                ("maker", "0x0000000000000000000000000000000000000001"),
                ("items[0].token", "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"),
                ("items[0].amount", "1000000000000000000"),
                ("items[0].tags[0]", "a"), ("items[0].tags[1]", "b"),
                ("items[1].token", "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"), ("items[1].amount", "2"),
                ("items[1].tags", "[]"),
                ("amounts[0]", "1"), ("amounts[1]", "2"), ("amounts[2]", "3"),
                ("notes[0]", "one"), ("notes[1]", "two"), ("notes[2]", ""),
                ("blobs[0]", "0x"), ("blobs[1]", "0x01"), ("blobs[2]", "0xabcdef"),
                ("flags[0]", "true"), ("flags[1]", "false"), ("flags[2]", "true"),
                ("matrix[0][0]", "1"), ("matrix[0][1]", "2"), ("matrix[0][2]", "3"), ("matrix[1]", "[]"),
                ("matrix[2][0]", "255"),
                ("pairs[0][0]", "-1"), ("pairs[0][1]", "1"), ("pairs[1][0]", "-32768"), ("pairs[1][1]", "32767"),
                ("grid[0][0].token", "0x0000000000000000000000000000000000000002"), ("grid[0][0].amount", "0"),
                ("grid[0][0].tags[0]", "x"), ("grid[1]", "[]"),
                ("none", "[]"),
                ("fixedItems[0].token", "0x0000000000000000000000000000000000000003"), ("fixedItems[0].amount", "3"),
                ("fixedItems[0].tags", "[]"),
                ("fixedItems[1].token", "0x0000000000000000000000000000000000000004"), ("fixedItems[1].amount", "4"),
                ("fixedItems[1].tags[0]", "y"), ("fixedItems[1].tags[1]", "z"),
                ("owners[0]", "0x0000000000000000000000000000000000000005"),
                ("owners[1]", "0x0000000000000000000000000000000000000006"),
                ("owners[2]", "0x0000000000000000000000000000000000000007"),
            ])
        XCTAssertEqual(
            typed.domain,
            TypedData.Domain(
                name: "Exchange", version: "2", chainId: "10",
                verifyingContract: "0x1111111111111111111111111111111111111111",
                salt: "0x2222222222222222222222222222222222222222222222222222222222222222"))
    }

    /// Only what `types.EIP712Domain` declares is signed, and so only that is shown; a field
    /// that is not standard is hashed as declared but is no part of `domain`.
    func testDomainShowsTheStandardFieldsDeclared() throws {
        let typed = try typedData(Self.oddDomain.json)
        XCTAssertEqual(
            typed.domain,
            TypedData.Domain(chainId: "5", salt: "0x00000000000000000000000000000000000000000000000000000000000000ff"))
        let undeclared = Self.oddDomain.json.replacingOccurrences(
            of: #""app":"demo""#, with: #""app":"demo","name":"Not Signed""#)
        XCTAssertEqual(try typedData(undeclared).domain, typed.domain)
        XCTAssertEqual(try typedData(undeclared).digest, typed.digest)
    }

    /// primaryType EIP712Domain signs the domain alone; what a person reads is the domain.
    func testPrimaryTypeEIP712DomainSignsTheDomainAlone() throws {
        let typed = try typedData(Self.domainOnly.json)
        XCTAssertNil(typed.messageHash)
        XCTAssertEqual(Hex.encode(typed.digest), Hex.encode(Keccak256.hash([0x19, 0x01] + typed.domainSeparator)))
        assertLines(typed.flattenedMessage(), [("name", "Only"), ("chainId", "1")])
    }

    /// eth-account ignores members the type does not declare (checked with 0.14.0: Mail with an
    /// extra member hashes as Mail without it), in the message and in the domain.
    func testMembersNotDeclaredAreIgnored() throws {
        let extra = Self.mail
            .replacingOccurrences(
                of: #""contents": "Hello, Bob!""#, with: #""contents": "Hello, Bob!", "bcc": {"name": "Eve"}"#
            )
            .replacingOccurrences(of: #""version":"1","#, with: #""version":"1","unlisted":"x","#)
        XCTAssertNotEqual(extra, Self.mail)
        XCTAssertEqual(
            Hex.encode(try typedData(extra).digest), "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2")
        XCTAssertEqual(try typedData(extra).flattenedMessage().count, 5)
    }

    // MARK: Recursive types and the bounds

    /// Types that refer to each other are listed once in encodeType, and hash whatever finite
    /// data they are given.
    func testMutuallyRecursiveTypes() throws {
        let document = #"""
            {"types":{"EIP712Domain":[],"A":[{"name":"b","type":"B[]"}],"B":[{"name":"a","type":"A[]"},{"name":"n","type":"uint8"}]},
             "primaryType":"A","domain":{},"message":{"b":[{"a":[{"b":[]}],"n":1}]}}
            """#
        let types = try EIP712Types(parsing: json(document).objectValue?["types"], field: "types")
        XCTAssertEqual(types.encodeType("A"), "A(B[] b)B(A[] a,uint8 n)")
        XCTAssertEqual(types.encodeType("B"), "B(A[] a,uint8 n)A(B[] b)")
        let typed = try typedData(document)
        assertLines(typed.flattenedMessage(), [("b[0].a[0].b", "[]"), ("b[0].n", "1")])
        XCTAssertEqual(typed.domain, TypedData.Domain())
        // By hand: hashStruct(A, {b: [B{a: [A{b: []}], n: 1}]}).
        let keccak = { (bytes: [UInt8]) in Keccak256.hash(bytes) }
        let typeA = keccak(Array("A(B[] b)B(A[] a,uint8 n)".utf8)),
            typeB = keccak(Array("B(A[] a,uint8 n)A(B[] b)".utf8))
        let innerA = keccak(typeA + keccak([]))
        let b = keccak(typeB + keccak(innerA) + [UInt8](repeating: 0, count: 31) + [1])
        XCTAssertEqual(typed.messageHash, keccak(typeA + keccak(b)))
    }

    /// A tree type: 8 levels of Node take 16 levels of nesting (each Node and its children
    /// array), the most there may be; a 9th is refused where it starts.
    func testNestingDepthBound() throws {
        func tree(_ levels: Int) -> String {
            levels == 1 ? #"{"label":"leaf","children":[]}"# : #"{"label":"n","children":[\#(tree(levels - 1))]}"#
        }
        let types = #""Node":[{"name":"label","type":"string"},{"name":"children","type":"Node[]"}]"#
        XCTAssertEqual(try typedData(doc(types, message: tree(8), primaryType: "Node")).flattenedMessage().count, 9)
        let deep = fault(doc(types, message: tree(9), primaryType: "Node"))
        XCTAssertEqual(deep?.field, "\(at).message" + String(repeating: ".children[0]", count: 8))
        XCTAssertEqual(deep?.problem, "nested deeper than 16 structs and arrays")

        // Arrays alone: 15 dimensions are 16 levels with the message; 16 are one too many.
        let fifteen = String(repeating: "[", count: 15) + "7" + String(repeating: "]", count: 15)
        XCTAssertEqual(
            try typedData(field("uint8" + String(repeating: "[]", count: 15), fifteen)).flattenedMessage().first?.value,
            "7")
        let sixteen = fault(field("uint8" + String(repeating: "[]", count: 16), "[" + fifteen + "]"))
        XCTAssertEqual(sixteen?.field, "\(at).message.a" + String(repeating: "[0]", count: 15))
        XCTAssertEqual(fault(field("uint8" + String(repeating: "[]", count: 17), "[]"))?.field, "\(at).types.T[0].type")
    }

    /// The domain's chainId, the array and 65,534 elements are 65,536 values: the most there may be.
    func testValueCountBound() throws {
        let elements = { (count: Int) in "[" + Array(repeating: "0", count: count).joined(separator: ",") + "]" }
        XCTAssertEqual(try typedData(field("uint8[]", elements(65_534))).flattenedMessage().count, 65_534)
        let tooMany = fault(field("uint8[]", elements(65_535)))
        XCTAssertEqual(tooMany?.field, "\(at).message.a")
        XCTAssertEqual(tooMany?.problem, "typed data may hold at most 65536 values in all")
    }

    func testTypeCountAndFieldCountBounds() {
        let fields = (0..<65).map { #"{"name":"f\#($0)","type":"bool"}"# }.joined(separator: ",")
        XCTAssertEqual(fault(doc(#""T":[\#(fields)]"#, message: "{}"))?.field, "\(at).types.T")
        let types = (0..<64).map { #""T\#($0)":[]"# }.joined(separator: ",")
        XCTAssertEqual(fault(doc(types, message: "{}", primaryType: "T0"))?.field, "\(at).types")
        let long = String(repeating: "x", count: 40_000)
        XCTAssertEqual(
            fault(doc(#""T":[{"name":"\#(long)","type":"bool"},{"name":"y\#(long)","type":"bool"}]"#, message: "{}"))?
                .field,
            "\(at).types.T[1]")
    }

    // MARK: Malformed typed data

    func testMissingEIP712Domain() {
        let document = Self.mail.replacingOccurrences(of: #""EIP712Domain": ["#, with: #""Domain": ["#)
        XCTAssertEqual(fault(document)?.field, "\(at).types.EIP712Domain")
    }

    func testUnknownPrimaryType() {
        let unknown = fault(
            Self.mail.replacingOccurrences(of: #""primaryType": "Mail""#, with: #""primaryType": "Letter""#))
        XCTAssertEqual(unknown?.field, "\(at).primaryType")
        XCTAssertEqual(unknown?.problem, "no type Letter is defined in types")
        XCTAssertEqual(
            fault(Self.mail.replacingOccurrences(of: #""primaryType": "Mail""#, with: #""primaryType": 1"#))?.field,
            "\(at).primaryType")
    }

    func testMalformedTypeDefinitions() {
        let cases: [(types: String, field: String)] = [
            (#""T":[{"name":"a","type":"Letter"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"int"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint7"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint264"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint08"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"bytes0"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"bytes33"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint8[0]"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint8[02]"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint8[65537]"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint8 []"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint8[]x"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint8[-1]"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":"uint8["}]"#, "types.T[0].type"),
            (#""T":[{"name":"a","type":""}]"#, "types.T[0].type"),
            (#""T":[{"name":"a"}]"#, "types.T[0].type"),
            (#""T":[{"name":"a b","type":"bool"}]"#, "types.T[0].name"),
            (#""T":[{"name":"1a","type":"bool"}]"#, "types.T[0].name"),
            (#""T":[{"type":"bool"}]"#, "types.T[0].name"),
            (#""T":[{"name":"a","type":"bool"},{"name":"a","type":"bool"}]"#, "types.T[1].name"),
            (#""T":["bool a"]"#, "types.T[0]"),
            (#""T":{}"#, "types.T"),
            (#""T":[],"uint256":[]"#, "types.uint256"),
            (#""T":[],"bytes":[]"#, "types.bytes"),
            (#""T":[],"My Type":[]"#, "types"),
        ]
        for (types, field) in cases {
            XCTAssertEqual(fault(doc(types, message: #"{"a":1}"#))?.field, "\(at).\(field)", types)
        }
        let uint = fault(field("uint", "1"))
        XCTAssertEqual(uint?.problem, "uint is not accepted: write uint256, as a contract's type hash does")
        // The standard domain fields must have their standard types.
        let stringChain = Self.mail.replacingOccurrences(
            of: #"{"name":"chainId","type":"uint256"}"#, with: #"{"name":"chainId","type":"string"}"#)
        XCTAssertEqual(fault(stringChain)?.field, "\(at).types.EIP712Domain[2].type")
        XCTAssertEqual(fault(#"{"types":[],"primaryType":"T","domain":{},"message":{}}"#)?.field, "\(at).types")
    }

    func testMalformedValues() {
        let cases: [(type: String, value: String, field: String, problem: String)] = [
            ("uint8", "256", "a", "out of range for uint8: 0 to 2^8-1"),
            ("uint8", "-1", "a", "out of range for uint8: 0 to 2^8-1"),
            ("uint8", #""0x100""#, "a", "out of range for uint8: 0 to 2^8-1"),
            ("int8", "128", "a", "out of range for int8: -2^7 to 2^7-1"),
            ("int8", "-129", "a", "out of range for int8: -2^7 to 2^7-1"),
            ("int8", #""0x80""#, "a", "out of range for int8: -2^7 to 2^7-1"),
            (
                "uint256", #""115792089237316195423570985008687907853269984665640564039457584007913129639936""#, "a",
                "out of range for uint256: 0 to 2^256-1"
            ),
            ("uint8", "1.5", "a", "a uint8 is an integer; 1.5 is not one"),
            ("uint8", "1e2", "a", "a uint8 is an integer; 1e2 is not one"),
            ("uint8", #""1.5""#, "a", "expected a uint8: an integer in decimal, or 0x and hex digits"),
            ("uint8", #""0x""#, "a", "expected a uint8: an integer in decimal, or 0x and hex digits"),
            ("uint8", #""""#, "a", "expected a uint8: an integer in decimal, or 0x and hex digits"),
            ("uint8", #"" 1""#, "a", "expected a uint8: an integer in decimal, or 0x and hex digits"),
            ("int8", #""-0x1""#, "a", "a hex int8 cannot be negative; write it in decimal"),
            ("uint8", "true", "a", "expected a uint8: an integer, a decimal string or a 0x-hex string, found boolean"),
            ("int16", #""-""#, "a", "expected an int16: an integer in decimal, or 0x and hex digits"),
            ("int16", "1.0", "a", "an int16 is an integer; 1.0 is not one"),
            ("bool", #""true""#, "a", "expected true or false, found string"),
            ("bool", "1", "a", "expected true or false, found number"),
            ("bytes4", #""0x010203""#, "a", "a bytes4 is exactly 4 bytes (8 hex digits), not 3"),
            ("bytes4", #""0x0102030405""#, "a", "a bytes4 is exactly 4 bytes (8 hex digits), not 5"),
            ("bytes", #""0x123""#, "a", "expected bytes: 0x and an even number of hex digits"),
            ("bytes", #""1234""#, "a", "expected bytes: 0x and an even number of hex digits"),
            ("bytes", #""hello""#, "a", "expected bytes: 0x and an even number of hex digits"),
            ("string", "1", "a", "expected a string, found number"),
            ("uint8[2]", "[1,2,3]", "a", "expected 2 elements, found 3"),
            ("uint8[2]", "[1]", "a", "expected 2 elements, found 1"),
            ("uint8[2][]", "[[1,2],[3]]", "a[1]", "expected 2 elements, found 1"),
            ("uint8[]", "1", "a", "expected an array, found number"),
            (
                "uint8[]", "[1,null]", "a[1]",
                "expected a uint8: an integer, a decimal string or a 0x-hex string, found null"
            ),
            (
                "address", #""0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD827""#, "a",
                "expected an address: 0x and 40 hex digits, mixed case only as its EIP-55 checksum"
            ),
            (
                "address", #""0xcD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826""#, "a",
                "expected an address: 0x and 40 hex digits, mixed case only as its EIP-55 checksum"
            ),
            (
                "address", #""0x1234""#, "a",
                "expected an address: 0x and 40 hex digits, mixed case only as its EIP-55 checksum"
            ),
            ("address", "null", "a", "required: a value of type address"),
        ]
        for (type, value, field, problem) in cases {
            let refused = fault(self.field(type, value))
            XCTAssertEqual(refused?.field, "\(at).message.\(field)", "\(type) \(value)")
            XCTAssertEqual(refused?.problem, problem, "\(type) \(value)")
        }
    }

    /// A missing field is refused, struct or not. (eth-account 0.14.0 signs a zero word for a
    /// missing struct, string or bytes, and eth-sig-util for a missing struct; a person cannot be
    /// shown what is not there.)
    func testMissingMessageFields() {
        let noContents = Self.mail.replacingOccurrences(
            of: #""contents": "Hello, Bob!""#, with: #""subject": "Hello, Bob!""#)
        XCTAssertNotEqual(noContents, Self.mail)
        XCTAssertEqual(fault(noContents)?.field, "\(at).message.contents")
        XCTAssertEqual(fault(noContents)?.problem, "required: a value of type string")
        let noWallet = Self.mail.replacingOccurrences(
            of: #","wallet":"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB""#, with: "")
        XCTAssertEqual(fault(noWallet)?.field, "\(at).message.to.wallet")
        let nullPerson = Self.mail.replacingOccurrences(
            of: #""to": {"name":"Bob","wallet":"0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"}"#,
            with: #""to": null"#)
        XCTAssertEqual(fault(nullPerson)?.field, "\(at).message.to")
        let stringPerson = nullPerson.replacingOccurrences(of: #""to": null"#, with: #""to": "Bob""#)
        XCTAssertEqual(fault(stringPerson)?.problem, "expected an object of type Person, found string")
        let noChain = Self.mail.replacingOccurrences(of: #","chainId":1"#, with: "")
        XCTAssertEqual(fault(noChain)?.field, "\(at).domain.chainId")
    }

    func testMalformedDocument() {
        XCTAssertEqual(faultParsing(.array([]))?.field, at)
        XCTAssertEqual(faultParsing(.string("{"))?.field, at)
        XCTAssertEqual(faultParsing(.string("[]"))?.field, at)
        XCTAssertEqual(
            fault(#"{"types":{"EIP712Domain":[]},"primaryType":"EIP712Domain","domain":{}}"#)?.field, "\(at).message")
        XCTAssertEqual(
            fault(#"{"types":{"EIP712Domain":[]},"primaryType":"EIP712Domain","message":{}}"#)?.field, "\(at).domain")
        XCTAssertEqual(
            fault(#"{"types":{"EIP712Domain":[]},"primaryType":"EIP712Domain","domain":[],"message":{}}"#)?.field,
            "\(at).domain")
        XCTAssertEqual(
            fault(#"{"types":{"EIP712Domain":[]},"primaryType":"EIP712Domain","domain":{},"message":1}"#)?.field,
            "\(at).message")
        XCTAssertEqual(fault(#"{"primaryType":"EIP712Domain","domain":{},"message":{}}"#)?.field, "\(at).types")
    }

    // MARK: Integers

    func testIntegerEdges() throws {
        func word(_ value: JSONValue, _ bits: Int, signed: Bool) throws -> (String, String) {
            let (word, text) = try EIP712Integer.encode(value, bits: bits, signed: signed, field: "f")
            return (Hex.encode(word), text)
        }
        let ones = String(repeating: "f", count: 64)
        XCTAssertEqual(
            try word(
                "-57896044618658097711785492504343953926634992332820282019728792003956564819968", 256, signed: true
            ).0,
            "8" + String(repeating: "0", count: 63))
        XCTAssertThrowsError(
            try word(
                "-57896044618658097711785492504343953926634992332820282019728792003956564819969", 256, signed: true))
        XCTAssertEqual(
            try word("57896044618658097711785492504343953926634992332820282019728792003956564819967", 256, signed: true)
                .0,
            "7" + String(repeating: "f", count: 63))
        XCTAssertThrowsError(
            try word("57896044618658097711785492504343953926634992332820282019728792003956564819968", 256, signed: true)
        )
        XCTAssertEqual(try word(.string("0x" + ones), 256, signed: false).0, ones)
        XCTAssertThrowsError(try word(.string("0x1" + ones), 256, signed: false))
        XCTAssertEqual(try word(.string("0x000000" + ones), 256, signed: false).0, ones)
        XCTAssertEqual(try word("-1", 8, signed: true).0, ones)
        XCTAssertEqual(try word("007", 8, signed: false).1, "7")
        XCTAssertEqual(try word("-0", 8, signed: false).1, "0")
        XCTAssertEqual(try word(.number(JSONNumber("-0")!), 8, signed: true).1, "0")
        XCTAssertEqual(try word("0xFF", 8, signed: false).1, "255")
        XCTAssertEqual(
            try word(.string(String(repeating: "0", count: 10_000) + "10000000000000000000"), 64, signed: false).1,
            "10000000000000000000")
        XCTAssertEqual(
            try word(.string("18446744073709551616"), 72, signed: false).0,
            "0000000000000000000000000000000000000000000000010000000000000000")
        XCTAssertThrowsError(try word("18446744073709551616", 64, signed: false))
    }

    // MARK: Helpers

    private func json(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func typedData(_ text: String) throws -> TypedData {
        try TypedData(parsing: json(text), field: at)
    }

    /// A document of `types` and an EIP712Domain of chainId alone, domain chain 1.
    private func doc(_ types: String, message: String, primaryType: String = "T") -> String {
        #"{"types":{"EIP712Domain":[{"name":"chainId","type":"uint256"}],\#(types)},"primaryType":"\#(primaryType)","domain":{"chainId":1},"message":\#(message)}"#
    }

    /// A document whose message is a T of one field, `a`, of `type`, set to `value` (JSON text).
    private func field(_ type: String, _ value: String) -> String {
        doc(#""T":[{"name":"a","type":"\#(type)"}]"#, message: #"{"a":\#(value)}"#)
    }

    /// The -32602 that reading `text` throws, as (field, problem).
    private func fault(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> (
        field: String, problem: String
    )? {
        guard let value = try? json(text) else {
            XCTFail("not JSON: \(text.prefix(200))", file: file, line: line)
            return nil
        }
        return faultParsing(value, file: file, line: line)
    }

    private func faultParsing(_ value: JSONValue, file: StaticString = #filePath, line: UInt = #line) -> (
        field: String, problem: String
    )? {
        invalidParamsFault(
            { () throws(RPCError) in _ = try TypedData(parsing: value, field: at) }, file: file, line: line)
    }

    private func assertLines(
        _ lines: [(path: String, value: String)], _ expected: [(String, String)], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(
            lines.map { "\($0.path) = \($0.value)" }, expected.map { "\($0.0) = \($0.1)" }, file: file, line: line)
    }
}
