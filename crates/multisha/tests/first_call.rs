//! The very first hash of a process goes through the probe (the slot still holds it), which
//! must install the choice and forward to it. One test per binary, so nothing probed before.

use multisha::engine::{Algorithm, active};

#[test]
fn first_one_shot_calls_probe_install_and_hash_correctly() {
    // Multi-block input: the probe is called for the whole blocks, then for the padded tail.
    let data = vec![0xa5u8; 200];
    assert_eq!(
        multisha::sha1(&data).to_vec(),
        multisha_contract::harness::reference_sha1(&data)
    );
    assert_eq!(
        multisha::sha256(&data).to_vec(),
        multisha_contract::harness::reference_sha256(&data)
    );
    assert_eq!(
        multisha::sha224(&data).to_vec(),
        multisha_contract::harness::reference_sha224(&data)
    );
    for &algorithm in Algorithm::ALL {
        assert!(active(algorithm).variant.is_available());
    }
    // Installed now: later calls go straight to the kernel and agree.
    assert_eq!(
        multisha::sha256(&data).to_vec(),
        multisha_contract::harness::reference_sha256(&data)
    );
}
