package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/labstack/echo/v4"

	"arena/actors/breakroom/cashier"
	"arena/chain/egress"
	"arena/chain/lightning"
	"arena/chain/lightning/bolt11"
	"arena/chain/lightning/devwallet"
	"arena/chain/lightning/lnd"
	"arena/chain/lightning/lnurl"
	"arena/config"
)

// Break Room's wallet: the development wallet (no node configured), an LND node over REST, or
// none (config.Lightning). The paid tables take it as a hold-invoice wallet.

// holdWallet is a Lightning wallet with hold invoices: *lnd.Client and *devwallet.Wallet.
type holdWallet interface {
	lightning.Wallet
	AddHoldInvoice(ctx context.Context, hash [32]byte, req lightning.InvoiceRequest) (lightning.Invoice, error)
	SettleInvoice(ctx context.Context, preimage [32]byte) error
	CancelInvoice(ctx context.Context, paymentHash [32]byte) error
}

var (
	_ holdWallet = (*lnd.Client)(nil)
	_ holdWallet = (*devwallet.Wallet)(nil)
)

// currencyOf is the BOLT 11 currency of a config network name (config validated it).
func currencyOf(network string) bolt11.Currency {
	switch network {
	case "mainnet":
		return bolt11.Bitcoin
	case "testnet":
		return bolt11.Testnet
	case "signet":
		return bolt11.Signet
	case "simnet":
		return bolt11.Simnet
	}
	return bolt11.Regtest
}

// breakroomWallet is the wallet config names: nil for none; the development wallet (returned
// twice: also as dev, whose route the site mounts); or an LND client on the node's REST URL with
// its macaroon and certificate read from their files. It does not contact the node.
func breakroomWallet(l config.Lightning) (w holdWallet, dev *devwallet.Wallet, err error) {
	cur := currencyOf(l.NetworkName())
	switch l.WalletKind() {
	case config.WalletNone:
		return nil, nil, nil
	case config.WalletLND:
		mac, err := os.ReadFile(l.LNDMacaroon)
		if err != nil {
			return nil, nil, fmt.Errorf("serve: breakroom.lightning.lnd_macaroon: %w", err)
		}
		cert, err := os.ReadFile(l.LNDTLSCert)
		if err != nil {
			return nil, nil, fmt.Errorf("serve: breakroom.lightning.lnd_tls_cert: %w", err)
		}
		c, err := lnd.New(lnd.Options{URL: l.LNDURL, Macaroon: mac, TLSCert: cert, Currency: cur})
		if err != nil {
			return nil, nil, fmt.Errorf("serve: breakroom wallet: %w", err)
		}
		return c, nil, nil
	}
	d, err := devwallet.New(devwallet.Options{Currency: cur})
	if err != nil {
		return nil, nil, fmt.Errorf("serve: breakroom wallet: %w", err)
	}
	return d, d, nil
}

// devRoute is the development wallet's pay route on the Break Room site (devwallet.PayPath).
type devRoute struct{ w *devwallet.Wallet }

// Mount mounts POST /dev/lightning/pay.
func (d devRoute) Mount(e *echo.Echo) error {
	h := echo.WrapHandler(d.w.Handler())
	e.POST(devwallet.PayPath, h)
	e.Match([]string{http.MethodGet, http.MethodPut, http.MethodDelete}, devwallet.PayPath, h)
	return nil
}

// paymentsOf is the room's paid tables on wallet (nil: none): payouts through the egress policy
// (the production one, no private or loopback address; in development mode, the development
// wallet or a node on regtest or simnet, the development one, which reaches loopback over http),
// invoices on the configured network.
func paymentsOf(w holdWallet, dev *devwallet.Wallet, l config.Lightning) *cashier.Options {
	if w == nil {
		return nil
	}
	cur := currencyOf(l.NetworkName())
	res := &lnurl.Resolver{Egress: egress.NewClient(egress.Policy{}), Currency: cur}
	if dev != nil || l.NetworkName() == "regtest" || l.NetworkName() == "simnet" {
		res = &lnurl.Resolver{Egress: egress.NewClient(egress.Dev()), Scheme: "http", Currency: cur}
	}
	return &cashier.Options{Wallet: w, Resolver: res, Currency: cur, TestSats: dev != nil}
}
