//! Links the release `jumpnet` binary on Linux with `link/hot_text.ld`, which puts the
//! functions `jumpnet sim --booksim` runs ahead of the rest of the code: the kernel maps code
//! into a process in 64 KiB windows around each page it runs, so gathered code keeps the
//! resident set small (docs/booksim.md §6; `link/hot_text.py` records the list). It also packs
//! the relative relocations (`-z pack-relative-relocs`, glibc 2.36's `DT_RELR`): the loader
//! then reads 5 KiB of them at start instead of 138 KiB.

fn main() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/link/hot_text.ld");
    println!("cargo:rerun-if-changed={script}");
    println!("cargo:rerun-if-changed=build.rs");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    if linux && release {
        println!("cargo:rustc-link-arg-bin=jumpnet=-Wl,-T,{script}");
        println!("cargo:rustc-link-arg-bin=jumpnet=-Wl,-z,pack-relative-relocs");
    }
}
