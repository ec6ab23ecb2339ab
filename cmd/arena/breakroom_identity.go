package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/labstack/echo/v4"

	"arena/config"
)

// breakroomKeyFile is Break Room's own Nostr key in the data directory: 64 hex digits of a
// secp256k1 secret key, made on first start (0600) and never replaced, whose x-only public key
// is what "_@<domain>" names in /.well-known/nostr.json (transport/breakroom/identity).
const breakroomKeyFile = "breakroom-nostr.key"

// breakroomKey is Break Room's Nostr public key (x-only, 64 lower-case hex) from
// <data>/breakroom-nostr.key, generating the file when it does not exist. A file that exists but
// does not hold a key is an error, never replaced: replacing it would change who "_" is.
func breakroomKey(cfg config.Config) (string, error) {
	path := filepath.Join(cfg.DataDir, breakroomKeyFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil || len(raw) != btcec.PrivKeyBytesLen {
			return "", fmt.Errorf("serve: Break Room key %s: want %d hex digits of a secp256k1 secret key", path, 2*btcec.PrivKeyBytesLen)
		}
		sk, _ := btcec.PrivKeyFromBytes(raw)
		if sk.Key.IsZero() {
			return "", fmt.Errorf("serve: Break Room key %s: the zero key", path)
		}
		return hex.EncodeToString(schnorr.SerializePubKey(sk.PubKey())), nil
	case errors.Is(err, fs.ErrNotExist):
		sk, err := btcec.NewPrivateKey()
		if err != nil {
			return "", fmt.Errorf("serve: make Break Room key: %w", err)
		}
		if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
			return "", fmt.Errorf("serve: make data dir: %w", err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return "", fmt.Errorf("serve: write Break Room key: %w", err)
		}
		if _, err := f.WriteString(hex.EncodeToString(sk.Serialize()) + "\n"); err != nil {
			f.Close()
			return "", fmt.Errorf("serve: write Break Room key: %w", err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return "", fmt.Errorf("serve: write Break Room key: %w", err)
		}
		if err := f.Close(); err != nil {
			return "", fmt.Errorf("serve: write Break Room key: %w", err)
		}
		return hex.EncodeToString(schnorr.SerializePubKey(sk.PubKey())), nil
	default:
		return "", fmt.Errorf("serve: read Break Room key: %w", err)
	}
}

// mounter is one of a site's doors.
type mounter interface{ Mount(*echo.Echo) error }

// doorSet is several doors mounted on one site, in order.
type doorSet []mounter

// Mount mounts each door; the first error stops.
func (s doorSet) Mount(e *echo.Echo) error {
	for _, d := range s {
		if err := d.Mount(e); err != nil {
			return err
		}
	}
	return nil
}
