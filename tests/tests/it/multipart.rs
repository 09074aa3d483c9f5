//! Multipart and form bodies: fields and files from the generated client and from other clients,
//! bodies offered as JSON or multipart, and lists or maps a form leaves out.

/// The features fixture.
mod features {
    use crate::fixtures::features::{client, start};
    use features_client::types::Owner;

    #[tokio::test]
    async fn multipart_bodies_carry_fields_and_files() {
        use features_client::File;
        use features_client::types::{Album, AlbumReceipt, AttachToNoteBody};
        let (base, _) = start().await;
        let client = client(&base);
        // A file whose bytes contain a boundary-like line must not end its part early.
        let cover = File::new("cover.png", b"\x89PNG\r\n--boundary-0\r\n".to_vec()).with_content_type("image/png");
        let cover_entry = format!("cover.png image/png {}", cover.bytes.len());
        let extras = vec![File::new("a.txt", "a"), File { name: None, content_type: None, bytes: vec![0; 3].into() }];
        let album = Album::new("On the \"beach\"".into(), cover)
            .with_rating(5)
            .with_tags(vec!["x".into(), "y z".into()])
            .with_owner(Owner::default().with_name("Ann".into()))
            .with_extras(extras);
        let receipt = client.upload_album("Rex", album).await.unwrap();
        let files =
            vec![cover_entry, "a.txt application/octet-stream 1".into(), "file application/octet-stream 3".into()];
        let expected = AlbumReceipt::new("Rex".into(), "On the \"beach\"".into(), files)
            .with_rating(5)
            .with_tags(vec!["x".into(), "y z".into()])
            .with_owner(Owner::default().with_name("Ann".into()));
        assert_eq!(receipt, expected);
        // An optional multipart body, with and without its optional file.
        let with_file = AttachToNoteBody::default().with_file(File::new("n.txt", "four")).with_comment("ab".into());
        assert_eq!(client.attach_to_note("n1").body(with_file).await.unwrap(), 6);
        assert_eq!(client.attach_to_note("n1").body(AttachToNoteBody::default()).await.unwrap(), -1);
        assert_eq!(client.attach_to_note("n1").await.unwrap(), -1);
    }

    #[tokio::test]
    async fn multipart_bodies_from_other_clients_are_read_and_checked() {
        let (base, _) = start().await;
        let post = |content_type: &'static str, body: &'static str| {
            reqwest::Client::new()
                .post(format!("{base}/pets/Rex/album"))
                .bearer_auth("tok")
                .header("content-type", content_type)
                .body(body.replace('\n', "\r\n"))
                .send()
        };
        // As a browser writes it: quoted boundary, lowercase headers, a part without a file name.
        let ok = post(
            "multipart/form-data; boundary=\"b1\"",
            "--b1\ncontent-disposition: form-data; name=\"caption\"\n\nhi\n--b1\ncontent-disposition: form-data; name=\"cover\"\n\nraw\n--b1--\n",
        )
        .await
        .unwrap();
        assert_eq!(ok.status(), 200);
        let receipt: serde_json::Value = serde_json::from_slice(&ok.bytes().await.unwrap()).unwrap();
        assert_eq!(receipt["files"], serde_json::json!(["- - 3"]));
        // A file name is the sender's word: the implementation gets only its safe form.
        let named = post(
            "multipart/form-data; boundary=b0",
            "--b0\ncontent-disposition: form-data; name=\"caption\"\n\nhi\n--b0\ncontent-disposition: form-data; name=\"cover\"; filename=\"../../srv/CON.txt\"\n\nraw\n--b0\ncontent-disposition: form-data; name=\"extras\"; filename=\"..\\\\evil\u{202e}fdp.exe\"\n\nx\n--b0\ncontent-disposition: form-data; name=\"extras\"; filename=\"..\"\n\ny\n--b0--\n",
        )
        .await
        .unwrap();
        assert_eq!(named.status(), 200);
        let receipt: serde_json::Value = serde_json::from_slice(&named.bytes().await.unwrap()).unwrap();
        assert_eq!(receipt["files"], serde_json::json!(["_CON.txt - 3", "evilfdp.exe - 1", "- - 1"]));
        // A value that does not fit its field is named like a form's.
        let bad = post(
            "multipart/form-data; boundary=b2",
            "--b2\nContent-Disposition: form-data; name=\"caption\"\n\n\n--b2\nContent-Disposition: form-data; name=\"rating\"\n\nfive\n--b2--\n",
        )
        .await
        .unwrap();
        assert_eq!(bad.status(), 400);
        let problem: serde_json::Value = serde_json::from_slice(&bad.bytes().await.unwrap()).unwrap();
        let named: Vec<&String> = problem["errors"].as_object().unwrap().keys().collect();
        assert_eq!(named, ["body.rating"], "{problem}");
        let missing_file = post(
            "multipart/form-data; boundary=b3",
            "--b3\nContent-Disposition: form-data; name=\"caption\"\n\nhi\n--b3--\n",
        )
        .await
        .unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&missing_file.bytes().await.unwrap()).unwrap();
        assert_eq!(problem["errors"]["body.cover"], serde_json::json!(["the file part is required"]), "{problem}");
        let unclosed =
            post("multipart/form-data; boundary=b4", "--b4\nContent-Disposition: form-data; name=\"caption\"\n\nhi\n")
                .await
                .unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&unclosed.bytes().await.unwrap()).unwrap();
        assert_eq!(
            problem["errors"]["body"],
            serde_json::json!(["the multipart body is malformed: the last part is not closed by the boundary"])
        );
        let json = post("application/json", "{}").await.unwrap();
        assert_eq!(json.status(), 415);
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

    #[tokio::test]
    async fn a_body_offered_as_json_or_multipart_with_a_file_is_a_case_each() {
        use unseen_client::File;
        use unseen_client::types::{AddFileBody, NamedFile};
        let (mock, client) = serve().await;
        mock.on_add_file(|_, input| async move {
            use unseen_server::types::AddFileBody as Body;
            Ok(match input.body {
                Body::Multipart(form) => format!("{}:{}", form.name.unwrap_or_default(), form.file.bytes.len()),
                Body::Json(json) => format!("json {json}"),
            })
        });
        let body = NamedFile::new(File::new("notes.txt", "twelve bytes")).with_name("notes.txt".into());
        assert_eq!(client.add_file(AddFileBody::Multipart(body)).await.expect("stored"), "notes.txt:12");
        // JSON has no file parts: its case is the value as it came.
        let json = AddFileBody::Json(serde_json::json!({"name": "notes.txt"}));
        assert_eq!(client.add_file(json).await.expect("stored"), r#"json {"name":"notes.txt"}"#);
    }

    #[tokio::test]
    async fn a_multipart_body_that_is_not_an_object_is_the_callers_bytes() {
        let (mock, client) = serve().await;
        mock.on_post_scan(|_, input| async move {
            assert_eq!(input.body, b"--b\r\n\r\npage\r\n--b--\r\n");
            Ok(())
        });
        client.post_scan(b"--b\r\n\r\npage\r\n--b--\r\n".to_vec()).await.expect("stored");
    }

    #[tokio::test]
    async fn a_form_and_multipart_of_one_schema_beside_json_are_each_read() {
        use unseen_client::types::{OpenTicketBody, OpenTicketJsonBody, TicketForm};
        let (mock, client) = serve().await;
        mock.on_open_ticket(|_, input| async move {
            use unseen_server::types::OpenTicketBody as Body;
            Ok(match input.body {
                Body::Json(json) => format!("json {}", json.subject),
                Body::Form(form) => format!("form {} {:?}", form.title, form.urgent),
                Body::Multipart(form) => format!("multipart {} {:?}", form.title, form.urgent),
            })
        });
        let mut form = TicketForm::new("leak".into());
        form.urgent = Some(true);
        let json = OpenTicketBody::Json(OpenTicketJsonBody::new("roof".into()));
        assert_eq!(client.open_ticket(json).await.expect("JSON"), "json roof");
        let sent = client.open_ticket(OpenTicketBody::Form(form.clone())).await.expect("form");
        assert_eq!(sent, "form leak Some(true)");
        let sent = client.open_ticket(OpenTicketBody::Multipart(form)).await.expect("multipart");
        assert_eq!(sent, "multipart leak Some(true)");
        let long = OpenTicketBody::Multipart(TicketForm::new("a title too long".into()));
        let refused = client.open_ticket(long).await.expect_err("too long");
        assert!(refused.to_string().contains("title"), "{refused}");
    }

    #[tokio::test]
    async fn a_required_list_or_map_a_form_leaves_out_is_empty() {
        let (mock, client) = serve().await;
        mock.on_count_batch(|_, input| async move { Ok((input.body.ids.len() + input.body.tags.len()) as i64) });
        let tags = [("a".to_string(), "b".to_string())].into_iter().collect();
        let body = unseen_client::types::CountBatchBody::new(vec![4, 5], tags);
        assert_eq!(client.count_batch(body).await.expect("two ids and a tag"), 3);
        let base = mock.serve().await.expect("serve");
        for (form, count) in [("label=none", "0"), ("ids=1&ids=2&ids=3", "3"), ("tags=&ids=4", "1")] {
            let reply = reqwest::Client::new()
                .post(format!("{base}/readings/batch"))
                .header("x-key", "key")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(form)
                .send()
                .await
                .expect("send");
            assert_eq!(reply.status(), 200, "{form}");
            assert_eq!(reply.text().await.expect("text"), count, "{form}");
        }
    }
}
