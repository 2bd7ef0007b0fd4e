use super::*;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jumpnet-outdir-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn new_empty_and_own_directories_are_written_others_refused() {
    let d = scratch("rule");
    let out = d.join("a/b/out");
    let o = OutDir::claim(&out, "test", "--out").unwrap();
    assert!(d.join("a/b/.out.lock").exists());
    o.write_all(&[("x.txt", "1".to_string())]).unwrap();
    assert_eq!(entries(&out), [MARKER, "x.txt"]);
    assert_eq!(entries(&d.join("a/b")), ["out"], "no lock or staging left");
    // Written by jumpnet: replaced as a whole.
    let o = OutDir::claim(&out, "test", "--out").unwrap();
    o.write_all(&[("y.txt", "2".to_string())]).unwrap();
    assert_eq!(entries(&out), [MARKER, "y.txt"]);
    // An empty directory of the user's is fine.
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    OutDir::claim(&empty, "test", "--out")
        .unwrap()
        .write_all(&[("z", String::new())])
        .unwrap();
    assert_eq!(entries(&empty), [MARKER, "z"]);
    // A directory with the user's files, or a file, is refused and left alone.
    let mine = d.join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "mine").unwrap();
    let e = OutDir::claim(&mine, "test", "--out").unwrap_err();
    assert!(
        format!("{e}").contains("is not empty and was not written by jumpnet"),
        "{e}"
    );
    assert_eq!(entries(&mine), ["notes.txt"]);
    let e = OutDir::claim(&mine.join("notes.txt"), "test", "--out").unwrap_err();
    assert!(
        format!("{e}").contains("exists and is not a directory"),
        "{e}"
    );
    assert_eq!(entries(&d), ["a", "empty", "mine"]);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_second_writer_is_refused_and_a_dropped_claim_leaves_nothing() {
    let d = scratch("lock");
    let out = d.join("sub/out");
    let mut first = OutDir::claim(&out, "test", "--out").unwrap();
    first.write("part", b"half").unwrap();
    let e = OutDir::claim(&out, "test", "--out").unwrap_err();
    let msg = format!("{e}");
    assert!(
        msg.contains("is being written by another jumpnet run"),
        "{msg}"
    );
    assert!(msg.contains(&std::process::id().to_string()), "{msg}");
    drop(first);
    assert_eq!(entries(&d), Vec::<String>::new(), "parents it made removed");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn leftovers_of_dead_processes_are_removed_and_their_locks_taken_over() {
    let d = scratch("stale");
    let out = d.join("out");
    // PIDs above the kernel's pid_max never run.
    let dead = 4_999_999u32;
    std::fs::create_dir_all(d.join(format!(".out.tmp-{dead}/x"))).unwrap();
    // A removal cut short (cleanup::remove_path moves a directory aside first).
    std::fs::create_dir_all(d.join(format!(".out.tmp-{dead}.removing/y"))).unwrap();
    std::fs::create_dir_all(d.join(format!(".out.old-{dead}.removing"))).unwrap();
    std::fs::create_dir_all(d.join(".other.tmp-1")).unwrap();
    std::fs::write(d.join(".out.lock"), format!("{dead} {}\n", hostname())).unwrap();
    let o = OutDir::claim(&out, "test", "--out").unwrap();
    assert_eq!(entries(&d), [".other.tmp-1", ".out.lock"]);
    drop(o);
    // A run that died between moving the old output away and the new one in: the old one
    // comes back.
    std::fs::create_dir_all(d.join(format!(".out.old-{dead}"))).unwrap();
    std::fs::write(d.join(format!(".out.old-{dead}/{MARKER}")), "{}").unwrap();
    drop(OutDir::claim(&out, "test", "--out").unwrap());
    assert_eq!(entries(&out), [MARKER]);
    // A lock of another machine is never taken over.
    std::fs::write(d.join(".out.lock"), "1 elsewhere\n").unwrap();
    assert!(OutDir::claim(&out, "test", "--out").is_err());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn files_are_verified_against_the_manifest() {
    let d = scratch("verify");
    let out = d.join("shard");
    OutDir::claim(&out, "test", "--out")
        .unwrap()
        .write_all(&[("results.json", "{\"a\": 1}\n".to_string())])
        .unwrap();
    let f = out.join("results.json");
    let bytes = std::fs::read(&f).unwrap();
    verify_file(&f, &bytes, "a shard").unwrap();
    let e = verify_file(&f, b"{\"a\": 2}\n", "a shard").unwrap_err();
    assert!(
        format!("{e}").contains("was changed after jumpnet wrote it"),
        "{e}"
    );
    std::fs::remove_file(out.join(MARKER)).unwrap();
    let e = verify_file(&f, &bytes, "a shard").unwrap_err();
    assert!(
        format!("{e}").contains("no checksum to verify it by"),
        "{e}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}
