import WalletBridge

/// The OpenRPC meta-schema (https://meta.open-rpc.org/, OpenRPC 1.2), shipped in the binary so
/// that a host's `rpc.discover` document is checked offline with nothing but `wallet-bridge`
/// (`describe --check`). The copy and where it comes from: `OpenRPCMetaSchema+Document.swift`,
/// written by scripts/generate-openrpc-meta-schema.py, which Tests/system/test_openrpc.py keeps
/// in step with the copy Python's `jsonschema` checks the same documents against.
public enum OpenRPCMetaSchema {
    /// The meta-schema, parsed. Nil only if the text shipped were not JSON, which a test rules out.
    static let document: JSONValue? = try? JSONParser.parse(Array(text.utf8))

    /// What makes `candidate` an invalid OpenRPC document, one line per problem, each naming
    /// where (`document.methods[0].paramStructure: …`). Empty when it is valid. `format` is not
    /// asserted, as draft-07 validators leave it by default; no other keyword the meta-schema
    /// uses is left unchecked.
    public static func problems(in candidate: JSONValue) -> [String] {
        guard let document else { return ["the OpenRPC meta-schema shipped in this binary cannot be read"] }
        // A document nests schemas inside schemas, each level a few validator levels deep.
        return JSONSchemaValidator(root: document, maxDepth: 1024).problems(
            candidate, against: document, at: "document")
    }
}
