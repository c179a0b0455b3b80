//! Wycheproof HMAC vectors through `hmac::Hmac<multisha::...>`: every valid tag is accepted,
//! every invalid one rejected; and through the HMAC batch functions (`hmac_many`).

use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;

fn run<M: Mac + KeyInit>(file: &str) -> (usize, usize) {
    let path = format!(
        "{}/tests/data/wycheproof/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: Value = serde_json::from_str(&text).expect("valid JSON");
    let (mut valid, mut invalid) = (0, 0);
    for group in json["testGroups"].as_array().expect("testGroups") {
        let tag_bytes = group["tagSize"].as_u64().expect("tagSize") as usize / 8;
        for test in group["tests"].as_array().expect("tests") {
            let field = |name: &str| hex::decode(test[name].as_str().expect(name)).expect("hex");
            let (key, msg, tag) = (field("key"), field("msg"), field("tag"));
            let id = &test["tcId"];
            let mut mac = <M as KeyInit>::new_from_slice(&key).expect("HMAC takes any key length");
            mac.update(&msg);
            let accepted = tag.len() == tag_bytes && mac.verify_truncated_left(&tag).is_ok();
            match test["result"].as_str() {
                Some("valid") => {
                    assert!(accepted, "{file} tcId {id}: valid tag rejected");
                    valid += 1;
                }
                Some("invalid") => {
                    assert!(!accepted, "{file} tcId {id}: invalid tag accepted");
                    invalid += 1;
                }
                other => panic!("{file} tcId {id}: unexpected result {other:?}"),
            }
        }
    }
    assert_eq!(
        valid + invalid,
        json["numberOfTests"].as_u64().expect("count") as usize
    );
    (valid, invalid)
}

#[test]
fn hmac_sha1() {
    let (valid, invalid) = run::<Hmac<multisha::Sha1>>("hmac_sha1_test.json");
    assert!(valid > 0 && invalid > 0);
}

#[test]
fn hmac_sha224() {
    let (valid, invalid) = run::<Hmac<multisha::Sha224>>("hmac_sha224_test.json");
    assert!(valid > 0 && invalid > 0);
}

#[test]
fn hmac_sha256() {
    let (valid, invalid) = run::<Hmac<multisha::Sha256>>("hmac_sha256_test.json");
    assert!(valid > 0 && invalid > 0);
}

#[test]
fn hmac_sha384() {
    let (valid, invalid) = run::<Hmac<multisha::Sha384>>("hmac_sha384_test.json");
    assert!(valid > 0 && invalid > 0);
}

#[test]
fn hmac_sha512() {
    let (valid, invalid) = run::<Hmac<multisha::Sha512>>("hmac_sha512_test.json");
    assert!(valid > 0 && invalid > 0);
}

#[test]
fn hmac_sha512_224() {
    let (valid, invalid) = run::<Hmac<multisha::Sha512_224>>("hmac_sha512_224_test.json");
    assert!(valid > 0 && invalid > 0);
}

#[test]
fn hmac_sha512_256() {
    let (valid, invalid) = run::<Hmac<multisha::Sha512_256>>("hmac_sha512_256_test.json");
    assert!(valid > 0 && invalid > 0);
}

/// The same vectors through the HMAC batch function, each group's tests as one batch per key
/// (Wycheproof varies the key from test to test; a batch takes one): every valid tag is the
/// batch's tag (truncated to the group's size), no invalid one is.
fn run_many<H: multisha::HashFunction>(file: &str) -> usize {
    let path = format!(
        "{}/tests/data/wycheproof/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: Value = serde_json::from_str(&text).expect("valid JSON");
    let mut checked = 0;
    for group in json["testGroups"].as_array().expect("testGroups") {
        let tag_bytes = group["tagSize"].as_u64().expect("tagSize") as usize / 8;
        let mut by_key: std::collections::BTreeMap<Vec<u8>, Vec<&Value>> = Default::default();
        for test in group["tests"].as_array().expect("tests") {
            let key = hex::decode(test["key"].as_str().expect("key")).expect("hex");
            by_key.entry(key).or_default().push(test);
        }
        for (key, tests) in by_key {
            let field =
                |t: &Value, name: &str| hex::decode(t[name].as_str().expect(name)).expect("hex");
            let messages: Vec<Vec<u8>> = tests.iter().map(|t| field(t, "msg")).collect();
            let mut tags = vec![H::ZERO; messages.len()];
            multisha::hmac_many::<H>(&key, &messages, &mut tags);
            for (test, tag) in tests.iter().zip(&tags) {
                let expected = field(test, "tag");
                let same = expected.len() == tag_bytes && tag.as_ref()[..tag_bytes] == expected[..];
                let id = &test["tcId"];
                match test["result"].as_str() {
                    Some("valid") => assert!(same, "{file} tcId {id}: hmac_many gave another tag"),
                    _ => assert!(!same, "{file} tcId {id}: hmac_many gave the invalid tag"),
                }
                checked += 1;
            }
        }
    }
    assert_eq!(
        checked,
        json["numberOfTests"].as_u64().expect("count") as usize
    );
    checked
}

#[test]
fn hmac_many_every_function() {
    assert!(run_many::<multisha::Sha1>("hmac_sha1_test.json") > 0);
    assert!(run_many::<multisha::Sha224>("hmac_sha224_test.json") > 0);
    assert!(run_many::<multisha::Sha256>("hmac_sha256_test.json") > 0);
    assert!(run_many::<multisha::Sha384>("hmac_sha384_test.json") > 0);
    assert!(run_many::<multisha::Sha512>("hmac_sha512_test.json") > 0);
    assert!(run_many::<multisha::Sha512_224>("hmac_sha512_224_test.json") > 0);
    assert!(run_many::<multisha::Sha512_256>("hmac_sha512_256_test.json") > 0);
}
