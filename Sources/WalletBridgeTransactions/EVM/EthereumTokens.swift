import WalletBridgeKeys
/// The well-known ERC-20 tokens whose amounts a dialog shows in units: USDC, USDT, DAI and WETH
/// (and the bridged USDC.e that came before native USDC) on Ethereum, Base, Polygon, Arbitrum
/// One and OP Mainnet. Anything else is shown raw, and the dialog says so: a token's own
/// `decimals()` and `symbol()` would need the network, and a name the token chose could lie.
///
/// Each address was checked against at least two independent lists (November 2026):
/// - Circle's USDC addresses: docs.gelato.cloud "USDC Addresses" and the curated list at
///   skills.sh (.../contract-addresses, verified on chain), which agree for every chain here.
/// - Ethereum: Trust Wallet's tokenlist.json (WETH), the gists whonion/a73d2288… (USDC, USDT,
///   DAI) and o-az/44768812… (USDC, USDT, WETH, DAI, with decimals).
/// - Base: derpdex-official/token-list base.tokenlist.json (WETH, DAI) and o-az/44768812…
///   (WETH, USDC, USDT), with several repositories' constants agreeing (DAI, USDT).
/// - Polygon: the crate blockchain_addresses (polygon/stables.rs: DAI, USDC.e, USDT), the gist
///   chiro-hiro/81fa40e6… (the same three with decimals), Reown AppKit's polygonUSDT, virgoproject
///   tokens (WETH, USDT, USDC.e) and folktizen/olive's polygon.ts (USDC, WETH, DAI),
///   Polymarket's contract addresses page (USDC.e).
/// - Arbitrum One: blockchain_addresses (arbitrum/stables.rs: DAI, USDC, USDT), Ramses'
///   Arbitrum tokenlist.json (USDC.e, USDC, USDT, DAI, WETH with decimals), whonion/a73d2288…,
///   Chainlink's CCIP directory (WETH).
/// - OP Mainnet: whonion/a73d2288… (USDT, USDC.e, USDC, DAI), asset-projects/token-list
///   optimistic-ethereum.json (USDT, USDC.e, DAI with decimals), openXswap's Optimism list and
///   o-az/44768812… (WETH at the OP Stack predeploy 0x4200…0006).
/// The tests check every entry parses with its EIP-55 checksum, so a mistyped letter fails.
enum EthereumTokens {
    struct Token: Equatable {
        let symbol: String
        let decimals: Int
    }

    /// Chain id, EIP-55 address, symbol, decimals.
    static let entries: [(chain: UInt64, address: String, symbol: String, decimals: Int)] = [
        (1, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "USDC", 6),
        (1, "0xdAC17F958D2ee523a2206206994597C13D831ec7", "USDT", 6),
        (1, "0x6B175474E89094C44Da98b954EedeAC495271d0F", "DAI", 18),
        (1, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "WETH", 18),
        (8453, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "USDC", 6),
        (8453, "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", "USDT", 6),
        (8453, "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb", "DAI", 18),
        (8453, "0x4200000000000000000000000000000000000006", "WETH", 18),
        (137, "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", "USDC", 6),
        (137, "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174", "USDC.e", 6),
        (137, "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", "USDT", 6),
        (137, "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063", "DAI", 18),
        (137, "0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619", "WETH", 18),
        (42161, "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", "USDC", 6),
        (42161, "0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8", "USDC.e", 6),
        (42161, "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", "USDT", 6),
        (42161, "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", "DAI", 18),
        (42161, "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1", "WETH", 18),
        (10, "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", "USDC", 6),
        (10, "0x7F5c764cBc14f9669B88837ca1490cCa17c31607", "USDC.e", 6),
        (10, "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58", "USDT", 6),
        (10, "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", "DAI", 18),
        (10, "0x4200000000000000000000000000000000000006", "WETH", 18),
    ]

    /// By chain id, then by lowercase address hex (without 0x).
    static let table: [UInt64: [String: Token]] = {
        var table: [UInt64: [String: Token]] = [:]
        for (chain, address, symbol, decimals) in entries {
            table[chain, default: [:]][address.dropFirst(2).lowercased()] = Token(symbol: symbol, decimals: decimals)
        }
        return table
    }()

    static func token(_ address: EthereumAddress, chain: UInt64) -> Token? {
        table[chain]?[Hex.encode(address.bytes)]
    }

    /// A chain whose own currency the wallet knows, and whether its fees can exceed what the
    /// transaction's gas fields limit.
    struct Chain: Equatable {
        /// The symbol of its currency, which has 18 decimals on every EVM chain (fees are in wei).
        let symbol: String
        /// OP Stack rollups also charge an L1 data fee, priced by the rollup when the transaction
        /// is included and not bounded by any field of it.
        let l1DataFee: Bool
    }

    /// Chains by id, checked against chainlist-style tables (nativeCurrency.symbol): Polygon's
    /// currency is POL since September 2024 (it was MATIC); Gnosis's is xDAI. A chain not here
    /// gets no symbol (`nativeSymbol`), and its fees are said to be possibly more than the most
    /// the gas fields allow, since the wallet cannot know how it charges.
    static let chains: [UInt64: Chain] = [
        1: Chain(symbol: "ETH", l1DataFee: false),
        10: Chain(symbol: "ETH", l1DataFee: true),  // OP Mainnet
        8453: Chain(symbol: "ETH", l1DataFee: true),  // Base
        42161: Chain(symbol: "ETH", l1DataFee: false),  // Arbitrum One: its L1 cost is charged as gas
        59144: Chain(symbol: "ETH", l1DataFee: false),  // Linea: its L1 cost is in the gas price
        11155111: Chain(symbol: "ETH", l1DataFee: false),  // Sepolia
        17000: Chain(symbol: "ETH", l1DataFee: false),  // Holesky
        84532: Chain(symbol: "ETH", l1DataFee: true),  // Base Sepolia
        11155420: Chain(symbol: "ETH", l1DataFee: true),  // OP Sepolia
        137: Chain(symbol: "POL", l1DataFee: false),
        56: Chain(symbol: "BNB", l1DataFee: false),
        43114: Chain(symbol: "AVAX", l1DataFee: false),  // Avalanche C-Chain
        100: Chain(symbol: "xDAI", l1DataFee: false),  // Gnosis
        250: Chain(symbol: "FTM", l1DataFee: false),  // Fantom Opera
        42220: Chain(symbol: "CELO", l1DataFee: false),
        25: Chain(symbol: "CRO", l1DataFee: false),  // Cronos
    ]

    /// What an amount of the chain's own currency is followed by: its symbol ("ETH", "POL"),
    /// or, on a chain not in `chains`, words that say it is the chain's own currency without
    /// guessing its name (short enough that the longest fee line stays within a dialog line).
    static func nativeSymbol(chain: UInt64) -> String {
        chains[chain]?.symbol ?? "(native currency, 18 decimals)"
    }
}
