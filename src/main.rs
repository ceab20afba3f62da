fn main() {
    // The protocol loop lands with issue 2.
}
