//go:build !race

package auction

const raceBuild = false
