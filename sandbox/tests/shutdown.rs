//! The sandbox process as an operator runs it: it stops on SIGTERM even while a peer holds a
//! connection open (within its grace period after one signal, at once after a second), and it
//! keeps answering when idle connections use up its file descriptors.
#![cfg(unix)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The sandbox on a free loopback port, and that port once it accepts connections.
fn start(grace_seconds: &str) -> (Child, u16) {
    start_limited(grace_seconds, None)
}

/// As [`start`], with at most `files` open file descriptors when given.
fn start_limited(grace_seconds: &str, files: Option<u32>) -> (Child, u16) {
    // The port is free when chosen, but another test may take it before the sandbox binds it;
    // a sandbox that could not bind has exited, and another port is tried.
    for _ in 0..5 {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let limit = files.map_or(String::new(), |n| format!("ulimit -n {n} && "));
        let script = format!("{limit}exec \"$0\" --addr 127.0.0.1:{port} --grace-period {grace_seconds}");
        let mut child = Command::new("sh")
            .args(["-c", &script, env!("CARGO_BIN_EXE_sandbox")])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                // Still running a moment later: the listener is this sandbox's, not another's.
                std::thread::sleep(Duration::from_millis(100));
                if child.try_wait().unwrap().is_none() {
                    return (child, port);
                }
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "the sandbox did not start listening");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    panic!("the sandbox could not bind a port five times");
}

/// A connection that sends half a request head and then nothing.
fn stalled_peer(port: u16) -> TcpStream {
    let mut socket = TcpStream::connect(("127.0.0.1", port)).unwrap();
    socket.write_all(b"GET /api/models HTTP/1.1\r\nhost: x\r\n").unwrap();
    // Let the server read it, so the connection is mid-request when the signal comes.
    std::thread::sleep(Duration::from_millis(100));
    socket
}

fn terminate(child: &Child) {
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

/// How long `child` takes to exit, failing the test past `limit`.
fn exits_within(child: &mut Child, limit: Duration) -> Duration {
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return started.elapsed();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("the sandbox was still running {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn one_signal_stops_within_the_grace_period_despite_a_stalled_peer() {
    let (mut child, port) = start("1");
    let mut peer = stalled_peer(port);
    terminate(&child);
    let took = exits_within(&mut child, Duration::from_secs(5));
    assert!(took < Duration::from_millis(1800), "took {took:?} with a 1 s grace period");
    // The stalled peer was disconnected rather than left hanging.
    peer.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    assert!(matches!(peer.read(&mut [0u8; 64]), Ok(0) | Err(_)));
}

#[test]
fn a_second_signal_stops_at_once() {
    let (mut child, port) = start("30");
    let _peer = stalled_peer(port);
    terminate(&child);
    std::thread::sleep(Duration::from_millis(200));
    assert!(child.try_wait().unwrap().is_none(), "the first signal waits for the grace period");
    terminate(&child);
    let took = exits_within(&mut child, Duration::from_secs(2));
    assert!(took < Duration::from_millis(500), "took {took:?} after the second signal");
}

#[test]
fn requests_are_answered_when_idle_connections_exhaust_the_file_descriptors() {
    let (mut child, port) = start_limited("1", Some(256));
    // More idle connections than the server has descriptors for.
    let idle: Vec<TcpStream> = (0..400).filter_map(|_| TcpStream::connect(("127.0.0.1", port)).ok()).collect();
    assert!(idle.len() > 300, "only {} connections were made", idle.len());
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let mut socket = TcpStream::connect(("127.0.0.1", port)).unwrap();
    socket.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let request = "GET /api/models HTTP/1.1\r\nhost: x\r\nauthorization: t\r\nx-pps-subscription-key: k\r\nx-pps-api-version: 2022.09.26\r\nconnection: close\r\n\r\n";
    socket.write_all(request.as_bytes()).unwrap();
    let mut reply = String::new();
    let _ = socket.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 200"), "after {:?}: {reply:?}", started.elapsed());
    assert!(started.elapsed() < Duration::from_secs(2), "answered only after {:?}", started.elapsed());
    terminate(&child);
    exits_within(&mut child, Duration::from_secs(5));
}
