//! Prints `ENV_VAR NAME` for every variant this CPU can run, one per line, best first per
//! algorithm and interface (`MULTISHA_SHA256 shani`, `MULTISHA_SHA256_MANY shani-x2`). CI runs
//! the test suite once per line, with `ENV_VAR=NAME` set (and the dispatcher's expectation
//! `MULTISHA_EXPECT_<ID>[_MANY]=NAME`, which CI derives from `ENV_VAR`).

fn main() {
    for &algorithm in multisha::engine::Algorithm::ALL {
        for variant in algorithm.variants().iter().filter(|v| v.is_available()) {
            println!(
                "{} {}",
                algorithm.env_var_for(variant.interface()),
                variant.name()
            );
        }
    }
}
