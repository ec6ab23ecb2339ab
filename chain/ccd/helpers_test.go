package ccd

import "github.com/btcsuite/btcutil/base58"

func base58CheckEncode(b []byte, version byte) string { return base58.CheckEncode(b, version) }
