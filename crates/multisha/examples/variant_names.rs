//! Prints `ALGORITHM NAME` for every variant this CPU can run, one per line, best first.
//! CI uses it to run the test suite once per variant forced through the environment.

fn main() {
    for algorithm in multisha::Algorithm::ALL {
        for variant in multisha::variants(algorithm)
            .iter()
            .filter(|v| v.is_available())
        {
            println!("{} {}", algorithm.id(), variant.name());
        }
    }
}
