package config

// Client is what the client sub-commands (`arena ops`, `arena anchor-check`) take from the
// environment when no flag gives it; each sub-command keeps its own flags and defaults.
type Client struct {
	Server        string // ARENA_SERVER: the server's base URL (arena ops)
	OperatorToken string // ARENA_OPERATOR_TOKEN: the /ops bearer token
	DataDir       string // ARENA_DATA: where the server wrote its operator token
	ChainNode     string // ARENA_CHAIN_NODE: the Concordium node's gRPC address (anchor-check)
}

// ClientEnv reads Client from getenv (os.Getenv, injected for tests); unset variables are "".
func ClientEnv(getenv func(string) string) Client {
	return Client{
		Server:        getenv("ARENA_SERVER"),
		OperatorToken: getenv("ARENA_OPERATOR_TOKEN"),
		DataDir:       getenv("ARENA_DATA"),
		ChainNode:     getenv("ARENA_CHAIN_NODE"),
	}
}
