//! Unions over the wire: told apart by a discriminator, by shape, by the one tag an inline
//! member allows, beside shared properties and inside an `allOf`, and as path parameters.

/// The features fixture.
mod features {
    use crate::fixtures::features::{client, start};
    use features_client::Error;
    use features_client::types::{Cat, Circle, Dog, Label, LabelKind, Note, Owner, Pet, Shape, Square};

    #[tokio::test]
    async fn discriminated_unions_of_merged_structs_round_trip() {
        let (base, fixture) = start().await;
        let client = client(&base);
        let cat = Pet::Cat(Cat::new("cat".into(), "Tom".into()).with_meows(true));
        let owner = Owner::default().with_name("Ann".into()).with_pets(vec![cat.clone()]);
        let dog = Pet::Dog(Dog::new("dog".into(), "Rex".into(), 3).with_owner(owner));
        assert_eq!(client.add_pet(cat.clone()).await.unwrap(), cat);
        assert_eq!(client.add_pet(dog.clone()).await.unwrap(), dog);
        assert_eq!(client.list_pets().await.unwrap(), vec![cat.clone(), dog.clone()]);
        // A deepObject filter: `filter[name]=Rex`, read back into its struct by the server.
        use features_client::types::ListPetsFilter;
        let rex = ListPetsFilter::default().with_name("Rex".into());
        assert_eq!(client.list_pets().filter(rex).await.unwrap(), vec![dog.clone()]);
        let cats = ListPetsFilter::default().with_pet_type("cat".into());
        assert_eq!(client.list_pets().filter(cats).await.unwrap(), vec![cat]);
        assert!(fixture.seen.lock().unwrap().contains(&"bearer=tok".to_string()), "the server strips `Bearer `");

        // On the wire: the discriminator is the struct's own field, and a wrong one is a located 400.
        let http = reqwest::Client::new();
        let raw = http.get(format!("{base}/pets")).bearer_auth("tok").send().await.unwrap().text().await.unwrap();
        assert!(raw.contains(r#""petType":"cat""#) && raw.contains(r#""barks":3"#), "{raw}");
        let bad = http
            .post(format!("{base}/pets"))
            .bearer_auth("tok")
            .header("content-type", "application/json")
            .body(r#"{"petType":"cow","name":"Daisy"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(bad.status(), 400);
        let problem = bad.text().await.unwrap();
        assert!(
            problem.contains(
                "`petType` is \\\"cow\\\", which is not one of \\\"cat\\\", \\\"dog\\\", \\\"Cat\\\", \\\"Dog\\\" for Pet"
            ),
            "{problem}"
        );
        // A required property that comes from the `allOf` member `Dog` adds is still required.
        let missing = http
            .post(format!("{base}/pets"))
            .bearer_auth("tok")
            .header("content-type", "application/json")
            .body(r#"{"petType":"dog","name":"Rex"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(missing.status(), 400);
        assert!(missing.text().await.unwrap().contains("barks"));
    }

    #[tokio::test]
    async fn unions_without_a_discriminator_are_read_by_shape() {
        let (base, fixture) = start().await;
        let client = client(&base);
        assert_eq!(client.get_shape("text", 1).await.unwrap(), Shape::String("round".into()));
        assert_eq!(client.get_shape("number", 1).await.unwrap(), Shape::Integer(7));
        let circle = Circle::new(1.5).with_label("c".into());
        assert_eq!(client.get_shape("circle", 1).await.unwrap(), Shape::Circle(circle));
        assert_eq!(client.get_shape("square", 1).await.unwrap(), Shape::Square(Square::new(2.0)));
        // Documented error bodies: typed on both sides, plain JSON on the wire.
        use features_client::types::{Failure, GetShapeError, GetShapeErrorNotFound};
        let missing = client.get_shape("none", 1).await.unwrap_err();
        assert_eq!(missing.status().map(|s| s.as_u16()), Some(404));
        let suggestions = vec!["circle".to_string(), "square".to_string()];
        let expected = GetShapeError::NotFound(GetShapeErrorNotFound::new("none".into(), suggestions));
        assert_eq!(GetShapeError::from_error(&missing), Some(expected));
        let teapot = client.get_shape("teapot", 1).await.unwrap_err();
        let expected = GetShapeError::Other(418, Failure::new(7, "short and stout".into()));
        assert_eq!(GetShapeError::from_error(&teapot), Some(expected));
        let raw = reqwest::Client::new()
            .get(format!("{base}/shapes/teapot"))
            .header("cookie", "session=s1; scale=1")
            .send()
            .await
            .unwrap();
        assert_eq!((raw.status().as_u16(), raw.headers()["content-type"].to_str().unwrap()), (418, "application/json"));
        assert_eq!(raw.text().await.unwrap(), r#"{"code":7,"message":"short and stout"}"#);
        let not_an_error = client.get_shape("bad", 1).await.unwrap_err();
        assert_eq!(
            not_an_error.status().map(|s| s.as_u16()),
            Some(500),
            "an error reply cannot carry a success status"
        );
        // The document gives problem details for 400 (not its `default` body), so the server's own
        // rejection is problem details, which are not a documented body of their own.
        let invalid = client.get_shape("circle", 0).await.unwrap_err();
        assert_eq!((invalid.status().map(|s| s.as_u16()), GetShapeError::from_error(&invalid)), (Some(400), None));
        assert!(fixture.seen.lock().unwrap().contains(&"session=s1".to_string()), "the cookie credential arrives");
        // Cookie parameters travel beside the cookie credential, percent-encoded and decoded again.
        let labelled = client.get_shape("circle", 2).label("x y; z=1").await.unwrap();
        assert_eq!(labelled, Shape::Circle(Circle::new(3.0).with_label("x y; z=1".into())));

        // Enums with odd values come first; any other string falls through to the text member.
        #[allow(deprecated)]
        let labels = client.list_labels().await.unwrap();
        let expected = [
            Label::LabelKind(LabelKind::InProgress),
            Label::LabelKind(LabelKind::V1),
            Label::LabelKind(LabelKind::Empty),
            Label::String("other".into()),
        ];
        assert_eq!(labels, expected);
        assert!(fixture.seen.lock().unwrap().contains(&"basic=dXNlcjpwdw==".to_string()));
        // Arrays joined by `|` (pipeDelimited) and by spaces (spaceDelimited), split again.
        #[allow(deprecated)]
        let filtered =
            client.list_labels().kinds(vec![LabelKind::InProgress, LabelKind::V1]).ids(vec![7, 8]).await.unwrap();
        let expected = [
            Label::LabelKind(LabelKind::InProgress),
            Label::LabelKind(LabelKind::V1),
            Label::String("7".into()),
            Label::String("8".into()),
        ];
        assert_eq!(filtered, expected);
        let raw = reqwest::Client::new()
            .get(format!("{base}/labels?kinds=1|in-progress&ids=9+10"))
            .basic_auth("user", Some("pw"))
            .send()
            .await
            .unwrap();
        assert_eq!(raw.text().await.unwrap(), r#"["1","in-progress","9","10"]"#);

        // An exploded object: `offset=1&limit=3`, each property a parameter of its own.
        use features_client::types::ListNotesWindow;
        let window = ListNotesWindow::new(3).with_offset(1);
        assert_eq!(client.list_notes().window(window).await.unwrap().len(), 2);
        let other = reqwest::Client::new().get(format!("{base}/notes?unrelated=1")).send().await.unwrap();
        assert_eq!(other.status(), 200, "pairs that are not the object's properties are not read into it");
        let raw = reqwest::Client::new().get(format!("{base}/notes?offset=x&limit=2")).send().await.unwrap();
        assert_eq!(raw.status(), 400);
        assert!(raw.text().await.unwrap().contains("window.offset"), "the property is named in the problem");
        let notes = client.list_notes().await.unwrap();
        assert_eq!(notes[0].priority, Some(3), "the server left `priority` out; the client reads its default");
        // `id` is required but read-only: the constructor leaves it out, the reply carries it.
        assert_eq!(
            notes,
            vec![
                Note::new("hello".into())
                    .with_id("n1".into())
                    .with_tags(vec!["a".into()])
                    .with_priority(3)
                    .with_day("2024-06-30".into())
                    .with_attachment("aGk=".into())
            ]
        );
        // A header parameter: set on the builder, arrives as sent; a line break is refused unsent.
        let greeted = client.list_notes().x_greeting("hi there").await.unwrap();
        assert_eq!(greeted[0].text, "hi there");
        let refused = client.list_notes().x_greeting("two\nlines").await.unwrap_err();
        assert!(matches!(refused, Error::InvalidArgument { name: "X-Greeting", .. }), "{refused:?}");
    }

    #[tokio::test]
    async fn unions_of_single_values_are_path_parameters() {
        let (base, _) = start().await;
        let client = client(&base);
        for label in
            [Label::LabelKind(LabelKind::InProgress), Label::LabelKind(LabelKind::V1), Label::String("a/b c".into())]
        {
            assert_eq!(client.echo_label(label.clone()).await.unwrap(), label);
        }
        let raw = reqwest::get(format!("{base}/labels/in-progress")).await.unwrap();
        assert_eq!(raw.text().await.unwrap(), r#""in-progress""#);
    }
}

/// The unseen fixture.
mod unseen {
    use crate::fixtures::unseen::serve;

    #[tokio::test]
    async fn a_choice_beside_shared_properties_reads_each_member_with_them() {
        use unseen_client::types::{Sensor, SensorThermometer};
        let (mock, client) = serve().await;
        mock.on_add_sensor(|_, input| std::future::ready(Ok(input.body)));
        let mut inner = SensorThermometer::new("thermo".into(), "t-1".into(), 21.5);
        inner.labels = Some(vec!["lab".into()]);
        inner.extra = Some(Default::default());
        inner.modes = Some(Vec::new());
        inner.weights = Some(Default::default());
        inner.calibration = Some(serde_json::json!({"at": []}));
        inner.limits = Some(Default::default());
        inner.batch = Some(unseen_client::types::SensorThermometerBatch::Integer(8));
        inner.site = Some(unseen_client::types::Place::new("BE".into(), "Gent".into()));
        let thermometer = Sensor::Thermometer(inner);
        assert_eq!(client.add_sensor(thermometer.clone()).await.expect("a thermometer"), thermometer);

        // The shared part's limits and each member's own hold on the server.
        let long_id = Sensor::Thermometer(SensorThermometer::new("thermo".into(), "ninechars".into(), 21.5));
        let too_cold = Sensor::Thermometer(SensorThermometer::new("thermo".into(), "t-1".into(), -300.0));
        for (bad, field) in [(long_id, "id"), (too_cold, "celsius")] {
            let refused = client.add_sensor(bad).await.expect_err(field);
            assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{field}: {refused:?}");
            assert!(refused.to_string().contains(field), "{field}: {refused}");
        }
        let base = mock.serve().await.expect("serve");
        let http = reqwest::Client::new();
        let post = |body: String| {
            let request = http.post(format!("{base}/sensors")).header("content-type", "application/json");
            async move { request.header("x-key", "key").body(body).send().await.expect("send") }
        };
        // Empty collections as defaults: what the request leaves out reads as empty.
        let echoed =
            post(r#"{"kind":"baro","id":"b-1","hectopascals":1013}"#.into()).await.bytes().await.expect("body");
        let echoed: serde_json::Value = serde_json::from_slice(&echoed).expect("json");
        assert_eq!((&echoed["labels"], &echoed["extra"]), (&serde_json::json!([]), &serde_json::json!({})), "{echoed}");
        // And defaults with content read as the document writes them.
        let defaults = (&echoed["modes"], &echoed["weights"], &echoed["calibration"]);
        let expected = (
            &serde_json::json!(["walk", "cycle"]),
            &serde_json::json!({"a": 1}),
            &serde_json::json!({"at": [1, null]}),
        );
        assert_eq!(defaults, expected, "{echoed}");
        let decoded = (&echoed["batch"], &echoed["site"]);
        assert_eq!(
            decoded,
            (&serde_json::json!("auto"), &serde_json::json!({"country": "NL", "city": "Delft"})),
            "{echoed}"
        );
        // A property's choice of ranges: 5 is in neither.
        for (gain, status) in [(0.5, 200), (12.0, 200), (5.0, 400)] {
            let reply = post(format!(r#"{{"kind":"baro","id":"b-1","hectopascals":1013,"gain":{gain}}}"#)).await;
            assert_eq!(reply.status(), status, "gain {gain}");
            let text = reply.text().await.expect("body");
            assert!(status == 200 || text.contains("gain"), "gain {gain}: {text}");
        }
        // A barometer without its own required property, or without the shared one, is refused.
        for body in [r#"{"kind":"baro","id":"b-1"}"#, r#"{"kind":"baro","hectopascals":1013}"#] {
            assert_eq!(post(body.into()).await.status(), 400, "{body}");
        }
    }

    #[tokio::test]
    async fn inline_members_are_told_apart_and_named_by_the_one_tag_each_allows() {
        use unseen_client::types::{Event, EventTick, EventTickType, PostNoteBody};
        let (mock, client) = serve().await;
        mock.on_post_event(|_, input| std::future::ready(Ok(input.body)));
        let tick = Event::Tick(EventTick::new(EventTickType::Tick, 7));
        assert_eq!(client.post_event(tick.clone()).await.expect("a tick"), tick);
        let note: Event = serde_json::from_str(r#"{"type":"note","text":"hi"}"#).expect("a note");
        assert!(matches!(note, Event::Note(ref n) if n.text == "hi"), "{note:?}");
        assert!(serde_json::from_str::<Event>(r#"{"type":"other"}"#).is_err());
        // Each value a member lists selects it, and it is sent back as it came.
        for kind in ["alarm", "alert"] {
            let alarm: Event = serde_json::from_str(&format!(r#"{{"type":"{kind}","level":3}}"#)).expect(kind);
            assert!(matches!(alarm, Event::AlarmOrAlert(ref a) if a.level == 3), "{alarm:?}");
            assert_eq!(client.post_event(alarm.clone()).await.expect(kind), alarm);
        }

        // A multipart body without a file part goes and arrives whole.
        let seen = std::sync::Arc::new(std::sync::Mutex::new(None));
        let record = seen.clone();
        mock.on_post_note(move |_, input| {
            *record.lock().unwrap() = Some(input.body.text);
            std::future::ready(Ok(()))
        });
        client.post_note(PostNoteBody::new("hello".into())).await.expect("a note");
        assert_eq!(seen.lock().unwrap().as_deref(), Some("hello"));
    }

    #[tokio::test]
    async fn a_choice_inside_an_all_of_reads_each_member_with_the_other_members() {
        use unseen_client::types::{RoleChange, RoleChangeOption1, RoleChangeOption2};
        let (mock, client) = serve().await;
        mock.on_change_role(|_, input| std::future::ready(Ok(input.body)));
        let remove = RoleChange::Option1(RoleChangeOption1::new("n-1".into(), true));
        assert_eq!(client.change_role(remove.clone()).await.expect("remove"), remove);
        let mut assign = RoleChangeOption2::new("n-2".into(), "eu".into());
        assign.capacity = Some(4);
        let assign = RoleChange::Option2(assign);
        assert_eq!(client.change_role(assign.clone()).await.expect("assign"), assign);
        // The shared member's limit holds inside either choice.
        let long = RoleChange::Option1(RoleChangeOption1::new("node-1".into(), true));
        let refused = client.change_role(long).await.expect_err("too long an id");
        assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused:?}");
    }

    #[tokio::test]
    async fn a_choice_that_only_narrows_a_number_is_checked_by_the_server() {
        use unseen_client::types::Place;
        let (mock, client) = serve().await;
        mock.on_find_places(|_, input| async move { Ok(vec![format!("{:?}", input.radius)]) });
        let near = || Place::new("NL".into(), "Delft".into());
        // Within either member: 0 to 10, or exactly 100.
        for radius in [5.0, 100.0] {
            let reply = client.find_places(near()).radius(radius).await.expect("a radius a member allows");
            assert_eq!(reply, [format!("Some({radius:?})")]);
        }
        // Between the members, or past both: neither allows it.
        for radius in [50.0, 101.0] {
            let refused = client.find_places(near()).radius(radius).await.expect_err("a radius no member allows");
            assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{radius}: {refused:?}");
            assert!(refused.to_string().contains("radius"), "{radius}: {refused}");
        }
    }
}
