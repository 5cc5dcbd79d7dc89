package authn

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"hash"
	"math/big"
	"os"
	"strings"
)

// This file is the JSON Web Signature (RFC 7515, compact form) that
// ServiceAccount tokens are made of: signing with one private key,
// verifying with any of a set of public keys, with the algorithms
// kube-apiserver uses (RS*, PS* for RSA keys; ES256/384/512 for P-256/384/521
// keys). Nothing here logs or returns a token.

// errCryptoPrimitive is the error go-jose (kube's JOSE library) reports for
// a signature that does not verify; kube passes it on in TokenReviews.
var errCryptoPrimitive = errors.New("go-jose/go-jose: error in cryptographic primitive")

// maxTokenSize bounds what is parsed as a JWT at all; kube's tokens are a
// few kilobytes.
const maxTokenSize = 64 << 10

type jwsHeader struct {
	Alg string `json:"alg"`
	Kid string `json:"kid,omitempty"`
}

// parsedJWS is a compact JWS split into its parts, not yet verified.
type parsedJWS struct {
	header       jwsHeader
	signingInput string // base64url(header) "." base64url(payload)
	payload      []byte
	signature    []byte
}

// parseJWS splits and decodes a compact JWS; ok is false for anything that
// is not one with an algorithm kapi verifies.
func parseJWS(token string) (parsedJWS, bool) {
	if len(token) > maxTokenSize || strings.Count(token, ".") != 2 {
		return parsedJWS{}, false
	}
	h, rest, _ := strings.Cut(token, ".")
	p, s, _ := strings.Cut(rest, ".")
	var out parsedJWS
	hb, err1 := base64.RawURLEncoding.DecodeString(h)
	pb, err2 := base64.RawURLEncoding.DecodeString(p)
	sb, err3 := base64.RawURLEncoding.DecodeString(s)
	if err1 != nil || err2 != nil || err3 != nil {
		return parsedJWS{}, false
	}
	if json.Unmarshal(hb, &out.header) != nil || algHash(out.header.Alg) == nil {
		return parsedJWS{}, false
	}
	out.signingInput, out.payload, out.signature = token[:len(h)+1+len(p)], pb, sb
	return out, true
}

// algHash is the hash of a supported algorithm, nil for others.
func algHash(alg string) func() hash.Hash {
	switch alg {
	case "RS256", "PS256", "ES256":
		return sha256.New
	case "RS384", "PS384", "ES384":
		return sha512.New384
	case "RS512", "PS512", "ES512":
		return sha512.New
	}
	return nil
}

func algCryptoHash(alg string) crypto.Hash {
	switch alg[2:] {
	case "256":
		return crypto.SHA256
	case "384":
		return crypto.SHA384
	}
	return crypto.SHA512
}

// verify checks the signature with key.
func (j parsedJWS) verify(key crypto.PublicKey) error {
	h := algHash(j.header.Alg)()
	h.Write([]byte(j.signingInput))
	digest := h.Sum(nil)
	switch k := key.(type) {
	case *rsa.PublicKey:
		switch j.header.Alg[:2] {
		case "RS":
			if rsa.VerifyPKCS1v15(k, algCryptoHash(j.header.Alg), digest, j.signature) == nil {
				return nil
			}
		case "PS":
			if rsa.VerifyPSS(k, algCryptoHash(j.header.Alg), digest, j.signature, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto}) == nil {
				return nil
			}
		}
	case *ecdsa.PublicKey:
		size := (k.Curve.Params().BitSize + 7) / 8
		if j.header.Alg != ecdsaAlg(k.Curve) || len(j.signature) != 2*size {
			return errCryptoPrimitive
		}
		r := new(big.Int).SetBytes(j.signature[:size])
		s := new(big.Int).SetBytes(j.signature[size:])
		if ecdsa.Verify(k, digest, r, s) {
			return nil
		}
	}
	return errCryptoPrimitive
}

func ecdsaAlg(c elliptic.Curve) string {
	switch c {
	case elliptic.P256():
		return "ES256"
	case elliptic.P384():
		return "ES384"
	case elliptic.P521():
		return "ES512"
	}
	return ""
}

// jwsSigner signs compact JWS with one private key.
type jwsSigner struct {
	key crypto.Signer
	alg string
	kid string
}

func newJWSSigner(key crypto.Signer) (*jwsSigner, error) {
	var alg string
	switch k := key.Public().(type) {
	case *rsa.PublicKey:
		alg = "RS256"
	case *ecdsa.PublicKey:
		alg = ecdsaAlg(k.Curve)
	}
	if alg == "" {
		return nil, fmt.Errorf("unsupported signing key type %T (RSA or ECDSA P-256/384/521)", key)
	}
	kid, err := KeyID(key.Public())
	if err != nil {
		return nil, err
	}
	return &jwsSigner{key: key, alg: alg, kid: kid}, nil
}

// KeyID is the "kid" header kube puts on the tokens a key signs: the
// unpadded base64url SHA-256 of the key's PKIX encoding.
func KeyID(pub crypto.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(der)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// sign returns the compact JWS of payload.
func (s *jwsSigner) sign(payload []byte) (string, error) {
	header, _ := json.Marshal(jwsHeader{Alg: s.alg, Kid: s.kid})
	input := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(payload)
	h := algHash(s.alg)()
	h.Write([]byte(input))
	digest := h.Sum(nil)
	var sig []byte
	switch k := s.key.(type) {
	case *ecdsa.PrivateKey:
		r, ss, err := ecdsa.Sign(rand.Reader, k, digest)
		if err != nil {
			return "", err
		}
		size := (k.Curve.Params().BitSize + 7) / 8
		sig = make([]byte, 2*size)
		r.FillBytes(sig[:size])
		ss.FillBytes(sig[size:])
	default:
		var err error
		sig, err = s.key.Sign(rand.Reader, digest, algCryptoHash(s.alg))
		if err != nil {
			return "", err
		}
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

// ParsePublicKeysPEM reads the public keys of PEM data as
// --service-account-key-file does: public keys (PKIX or PKCS#1),
// certificates, and the public halves of private keys (PKCS#1, SEC 1,
// PKCS#8).
func ParsePublicKeysPEM(data []byte) ([]crypto.PublicKey, error) {
	var keys []crypto.PublicKey
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		var key crypto.PublicKey
		var err error
		switch block.Type {
		case "PUBLIC KEY":
			key, err = x509.ParsePKIXPublicKey(block.Bytes)
		case "RSA PUBLIC KEY":
			key, err = x509.ParsePKCS1PublicKey(block.Bytes)
		case "CERTIFICATE":
			var c *x509.Certificate
			if c, err = x509.ParseCertificate(block.Bytes); err == nil {
				key = c.PublicKey
			}
		case "RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY":
			var s crypto.Signer
			if s, err = parsePrivateKeyBlock(block); err == nil {
				key = s.Public()
			}
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("parsing %s block: %w", block.Type, err)
		}
		switch key.(type) {
		case *rsa.PublicKey, *ecdsa.PublicKey:
			keys = append(keys, key)
		default:
			return nil, fmt.Errorf("unsupported key type %T", key)
		}
	}
	if len(keys) == 0 {
		return nil, errors.New("no public key found in PEM data")
	}
	return keys, nil
}

// ParsePrivateKeyPEM reads the first private key (RSA or ECDSA) of PEM
// data (--service-account-signing-key-file).
func ParsePrivateKeyPEM(data []byte) (crypto.Signer, error) {
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return nil, errors.New("no private key found in PEM data")
		}
		switch block.Type {
		case "RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY":
			return parsePrivateKeyBlock(block)
		}
	}
}

func parsePrivateKeyBlock(block *pem.Block) (crypto.Signer, error) {
	switch block.Type {
	case "RSA PRIVATE KEY":
		return x509.ParsePKCS1PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		return x509.ParseECPrivateKey(block.Bytes)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	switch k := k.(type) {
	case *rsa.PrivateKey:
		return k, nil
	case *ecdsa.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("unsupported private key type %T", k)
}

// LoadPublicKeys reads ParsePublicKeysPEM from a file.
func LoadPublicKeys(path string) ([]crypto.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	keys, err := ParsePublicKeysPEM(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return keys, nil
}

// LoadPrivateKey reads ParsePrivateKeyPEM from a file.
func LoadPrivateKey(path string) (crypto.Signer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := ParsePrivateKeyPEM(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}
