//! The features fixture (`codegen/tests/fixtures/features.yaml`) end to end: its generated client
//! against its generated server over real HTTP, for what the project spec does not use — unions
//! read by discriminator and by shape, merged `allOf`, schemas without `type`, odd enum values,
//! and bearer, basic and cookie credentials.

use std::sync::Mutex;

use features_client::types::{Cat, Circle, Dog, Label, LabelKind, Note, Owner, Pet, Shape, Square};
use features_client::{Client, Credentials, Error};
use features_server::{ApiError, FeaturesApi, RequestContext, Switch, inputs, types as server_types};

/// Stores pets; answers shapes by id; checks that credentials arrive without their prefixes.
#[derive(Default)]
struct Fixture {
    pets: Mutex<Vec<server_types::Pet>>,
    seen: Mutex<Vec<String>>,
}

impl FeaturesApi for Fixture {
    async fn list_pets(
        &self,
        ctx: RequestContext,
        input: inputs::ListPetsInput,
    ) -> Result<Vec<server_types::Pet>, ApiError> {
        self.seen.lock().unwrap().push(format!("bearer={}", ctx.bearer.unwrap_or_default()));
        let filter = input.filter.unwrap_or_default();
        let keep = |p: &server_types::Pet| {
            let (name, kind) = match p {
                server_types::Pet::Cat(c) => (&c.name, &c.pet_type),
                server_types::Pet::Dog(d) => (&d.name, &d.pet_type),
                other => panic!("unexpected {other:?}"),
            };
            filter.name.as_ref().is_none_or(|n| n == name) && filter.pet_type.as_ref().is_none_or(|t| t == kind)
        };
        Ok(self.pets.lock().unwrap().iter().filter(|p| keep(p)).cloned().collect())
    }

    async fn add_pet(&self, _: RequestContext, input: inputs::AddPetInput) -> Result<server_types::Pet, ApiError> {
        self.pets.lock().unwrap().push(input.body.clone());
        Ok(input.body)
    }

    async fn put_pet(
        &self,
        _: RequestContext,
        input: inputs::PutPetInput,
    ) -> Result<server_types::PutPetReply, ApiError> {
        use server_types::{Pet as P, PutPetReply as R};
        let name = |p: &P| match p {
            P::Cat(c) => c.name.clone(),
            P::Dog(d) => d.name.clone(),
            other => panic!("unexpected {other:?}"),
        };
        let mut pets = self.pets.lock().unwrap();
        match pets.iter_mut().find(|p| name(p) == input.name) {
            Some(existing) if *existing == input.body => Ok(R::NoContent),
            Some(existing) => Ok(R::Ok(std::mem::replace(existing, input.body))),
            None => {
                pets.push(input.body);
                let location = format!("/pets/{}", input.name);
                Ok(R::Created(
                    server_types::PutPetReply201::new(input.name),
                    server_types::PutPetReply201Headers::new(location),
                ))
            }
        }
    }

    async fn add_visit(
        &self,
        _: RequestContext,
        input: inputs::AddVisitInput,
    ) -> Result<server_types::Visit, ApiError> {
        let b = input.body;
        let mut visit = server_types::Visit::new(input.name, b.reason, b.minutes);
        visit.urgent = b.urgent;
        visit.kind = b.kind;
        visit.notes = b.notes;
        visit.owner = b.owner;
        Ok(visit)
    }

    async fn put_note_text(&self, _: RequestContext, input: inputs::PutNoteTextInput) -> Result<String, ApiError> {
        Ok(input.body.to_uppercase())
    }

    async fn get_stats_by_kind_by_from(
        &self,
        _: RequestContext,
        input: inputs::GetStatsByKindByFromInput,
    ) -> Result<server_types::Stats, ApiError> {
        let mut stats = server_types::Stats::new(2);
        stats.additional_properties.insert(input.kind, 1);
        stats.additional_properties.insert(input.from, 1);
        Ok(stats)
    }

    async fn put_photo(&self, _: RequestContext, input: inputs::PutPhotoInput) -> Result<i64, ApiError> {
        Ok(input.body.len() as i64)
    }

    async fn get_shape(
        &self,
        ctx: RequestContext,
        input: inputs::GetShapeInput,
    ) -> Result<server_types::Shape, ApiError> {
        self.seen.lock().unwrap().push(format!("session={}", ctx.session.unwrap_or_default()));
        use server_types::Shape as S;
        match input.id.as_str() {
            "text" => Ok(S::String("round".into())),
            "number" => Ok(S::Integer(7)),
            "circle" => Ok(S::Circle(
                server_types::Circle::new(1.5 * f64::from(input.scale))
                    .with_label(input.label.unwrap_or_else(|| "c".into())),
            )),
            "square" => Ok(S::Square(server_types::Square::new(2.0))),
            "teapot" => {
                Err(server_types::GetShapeError::Other(418, server_types::Failure::new(7, "short and stout".into()))
                    .into())
            }
            "bad" => {
                Err(server_types::GetShapeError::Other(200, server_types::Failure::new(0, "not an error".into()))
                    .into())
            }
            other => {
                let missing =
                    server_types::GetShapeErrorNotFound::new(other.into(), vec!["circle".into(), "square".into()]);
                Err(server_types::GetShapeError::NotFound(missing).into())
            }
        }
    }

    #[allow(deprecated)]
    async fn list_labels(
        &self,
        ctx: RequestContext,
        input: inputs::ListLabelsInput,
    ) -> Result<Vec<server_types::Label>, ApiError> {
        self.seen.lock().unwrap().push(format!("basic={}", ctx.basic.unwrap_or_default()));
        use server_types::{Label as L, LabelKind as K};
        // Filters come back as labels, so the test sees what arrived.
        if input.kinds.is_some() || input.ids.is_some() {
            let kinds = input.kinds.unwrap_or_default().into_iter().map(L::LabelKind);
            return Ok(kinds.chain(input.ids.unwrap_or_default().iter().map(|id| L::String(id.to_string()))).collect());
        }
        Ok(vec![L::LabelKind(K::InProgress), L::LabelKind(K::V1), L::LabelKind(K::Empty), L::String("other".into())])
    }

    async fn follow(
        &self,
        _: RequestContext,
        input: inputs::FollowInput,
    ) -> Result<server_types::FollowReplyHeaders, ApiError> {
        // A target with a line break cannot be a header value: the server must refuse to send it.
        Ok(server_types::FollowReplyHeaders::new(format!("/to/{}", input.target)).with_x_hops(1))
    }

    async fn read_counter(
        &self,
        _: RequestContext,
        _: inputs::ReadCounterInput,
    ) -> Result<(i64, server_types::ReadCounterReplyHeaders), ApiError> {
        let headers = server_types::ReadCounterReplyHeaders::new(42).with_x_kind(server_types::LabelKind::V1);
        Ok((7, headers))
    }

    async fn upload_album(
        &self,
        _: RequestContext,
        input: inputs::UploadAlbumInput,
    ) -> Result<server_types::AlbumReceipt, ApiError> {
        let album = input.body;
        let describe = |f: &features_server::File| {
            let name = f.name.as_deref().unwrap_or("-");
            format!("{name} {} {}", f.content_type.as_deref().unwrap_or("-"), f.bytes.len())
        };
        let files = std::iter::once(&album.cover).chain(album.extras.iter().flatten()).map(describe).collect();
        let mut receipt = server_types::AlbumReceipt::new(input.name, album.caption, files);
        receipt.rating = album.rating;
        receipt.tags = album.tags;
        receipt.owner = album.owner;
        Ok(receipt)
    }

    async fn attach_to_note(&self, _: RequestContext, input: inputs::AttachToNoteInput) -> Result<i64, ApiError> {
        let body = input.body.unwrap_or_default();
        let comment = body.comment.map_or(0, |c| c.len() as i64);
        Ok(body.file.map_or(-1, |f| f.bytes.len() as i64 + comment))
    }

    async fn echo_label(
        &self,
        _: RequestContext,
        input: inputs::EchoLabelInput,
    ) -> Result<server_types::Label, ApiError> {
        Ok(input.label)
    }

    async fn check_limits(&self, _: RequestContext, _: inputs::CheckLimitsInput) -> Result<(), ApiError> {
        Ok(())
    }

    async fn check_parameter_limits(
        &self,
        _: RequestContext,
        _: inputs::CheckParameterLimitsInput,
    ) -> Result<(), ApiError> {
        Ok(())
    }

    async fn patch_pet_details(
        &self,
        _: RequestContext,
        input: inputs::PatchPetDetailsInput,
    ) -> Result<server_types::PetDetails, ApiError> {
        // Stored details, changed by the patch: `null` clears, absent keeps.
        let mut details =
            server_types::PetDetails::default().with_nickname("Rexy".into()).with_age(3).with_color("brown".into());
        let patch = input.body;
        if !patch.nickname.is_absent() {
            details.nickname = patch.nickname;
        }
        if !patch.age.is_absent() {
            details.age = patch.age;
        }
        if patch.color.is_some() {
            details.color = patch.color;
        }
        Ok(details)
    }

    async fn open_tunnel(&self, _: RequestContext, input: inputs::OpenTunnelInput) -> Result<Switch, ApiError> {
        if input.protocol != "echo" {
            return Err(ApiError::bad_request(format!("`{}` is not spoken here", input.protocol)));
        }
        // Everything the peer sends comes back, until it closes its side.
        Ok(Switch::new("echo", |connection| async move {
            let (mut read, mut write) = tokio::io::split(connection);
            let _ = tokio::io::copy(&mut read, &mut write).await;
        }))
    }

    async fn list_notes(
        &self,
        _: RequestContext,
        input: inputs::ListNotesInput,
    ) -> Result<Vec<server_types::Note>, ApiError> {
        let note = server_types::Note::new(input.x_greeting.unwrap_or_else(|| "hello".into()))
            .with_id("n1".into())
            .with_tags(vec!["a".into()])
            .with_day("2024-06-30".into())
            .with_attachment("aGk=".into());
        let count = input.window.map_or(1, |w| w.limit - w.offset.unwrap_or(0));
        Ok(vec![note; count.max(0) as usize])
    }

    async fn who_am_i(&self, ctx: RequestContext, _: inputs::WhoAmIInput) -> Result<String, ApiError> {
        Ok(match (ctx.partner_key, ctx.bearer, ctx.session) {
            (Some(key), None, None) => format!("partner {key}"),
            (None, Some(bearer), Some(session)) => format!("bearer {bearer} with session {session}"),
            other => format!("unexpected {other:?}"),
        })
    }

    async fn get_badge(&self, ctx: RequestContext, input: inputs::GetBadgeInput) -> Result<String, ApiError> {
        Ok(format!("{} for {:?} {:?}", input.id, ctx.partner_key, ctx.partner_token))
    }

    async fn get_badge_holder(
        &self,
        ctx: RequestContext,
        input: inputs::GetBadgeHolderInput,
    ) -> Result<String, ApiError> {
        Ok(format!("{} for {:?} {:?}", input.id, ctx.bearer, ctx.vault_key))
    }

    /// Every error reply, the server's own rejections included, passes here: it names the
    /// operation that answered in a header.
    fn error_reply(&self, error: ApiError, reply: features_server::ErrorReply<'_>) -> axum::response::Response {
        let operation = reply.operation().unwrap_or("none");
        let mut response = reply.render(error);
        response.headers_mut().insert("x-answered-by", operation.parse().unwrap());
        response
    }
}

async fn start() -> (String, std::sync::Arc<Fixture>) {
    let fixture = std::sync::Arc::new(Fixture::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = features_server::router_with(fixture.clone(), features_server::ServerConfig::default());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, fixture)
}

fn client(base: &str) -> Client {
    Client::new(base, Credentials::new("tok", "dXNlcjpwdw==", "s1")).unwrap()
}

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
async fn several_success_statuses_are_one_reply_enum() {
    use features_client::types::{PutPetReply, PutPetReply201, PutPetReply201Headers};
    let (base, _) = start().await;
    let client = client(&base);
    let tom = Pet::Cat(Cat::new("cat".into(), "Tom".into()));
    let created = client.put_pet("Tom", tom.clone()).await.unwrap();
    let location = PutPetReply201Headers::new("/pets/Tom".into());
    assert_eq!(created, PutPetReply::Created(PutPetReply201::new("Tom".into()), location));
    assert_eq!(client.put_pet("Tom", tom.clone()).await.unwrap(), PutPetReply::NoContent);
    let loud = Pet::Cat(Cat::new("cat".into(), "Tom".into()).with_meows(true));
    assert_eq!(client.put_pet("Tom", loud).await.unwrap(), PutPetReply::Ok(tom));
    let raw = reqwest::Client::new()
        .put(format!("{base}/pets/Tom"))
        .bearer_auth("tok")
        .header("content-type", "application/json")
        .body(r#"{"petType":"cat","name":"Tom","meows":true}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 204, "the variant decides the status");
}

#[tokio::test]
async fn form_bodies_round_trip_with_lists_enums_and_nested_objects() {
    use features_client::types::{AddVisitBody, Visit};
    let (base, _) = start().await;
    let client = client(&base);
    let owner = Owner::default().with_name("Ann & Bo".into());
    let body = AddVisitBody::new("check up".into(), 30)
        .with_urgent(true)
        .with_kind(LabelKind::InProgress)
        .with_notes(vec!["limps a bit".into(), "a+b=c".into()])
        .with_owner(owner.clone())
        .with_signature("Dr. Vet".into());
    // The signature is write-only and required: optional in the type, which replies share, but
    // a request without it is refused.
    let mut unsigned = body.clone();
    unsigned.signature = None;
    let refused = client.add_visit("Rex", unsigned).await.expect_err("unsigned");
    assert!(format!("{refused:?}").contains("body.signature"), "{refused:?}");
    let visit = client.add_visit("Rex", body).await.unwrap();
    let expected = Visit::new("Rex".into(), "check up".into(), 30)
        .with_urgent(true)
        .with_kind(LabelKind::InProgress)
        .with_notes(vec!["limps a bit".into(), "a+b=c".into()])
        .with_owner(owner);
    assert_eq!(visit, expected);

    // The server reads plain form text, and names the field whose value does not fit.
    let http = reqwest::Client::new();
    let send = |body: &'static str| {
        http.post(format!("{base}/pets/Rex/visits"))
            .bearer_auth("tok")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let ok = send("reason=a+b&minutes=5&notes=x&notes=y&signature=s").await.unwrap();
    assert_eq!(ok.status(), 200);
    let text = ok.text().await.unwrap();
    assert!(text.contains(r#""reason":"a b""#) && text.contains(r#""notes":["x","y"]"#), "{text}");
    // Absent properties with a default arrive as that default.
    assert!(text.contains(r#""urgent":false"#) && text.contains(r#""kind":"in-progress""#), "{text}");
    let bad = send("reason=a&minutes=many").await.unwrap();
    assert_eq!(bad.status(), 400);
    let problem = bad.text().await.unwrap();
    assert!(problem.contains("body.minutes"), "{problem}");
    let low = send("reason=a&minutes=0").await.unwrap();
    assert_eq!(low.status(), 400, "limits apply to form bodies too");
    let json = http
        .post(format!("{base}/pets/Rex/visits"))
        .bearer_auth("tok")
        .header("content-type", "application/json")
        .body(r#"{"reason":"a","minutes":5}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), 415);
}

#[tokio::test]
async fn binary_bodies_arrive_byte_for_byte() {
    let (base, _) = start().await;
    let client = client(&base);
    let photo: Vec<u8> = (0..=255u8).cycle().take(70_000).collect();
    assert_eq!(client.put_photo("Rex", photo).await.unwrap(), 70_000);
    let http = reqwest::Client::new();
    let wrong = http
        .put(format!("{base}/pets/Rex/photo"))
        .bearer_auth("tok")
        .header("content-type", "image/jpeg")
        .body(vec![1u8, 2, 3])
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 415, "only the declared media type is accepted");
    // No body and no content type: the required body is missing. With a content type, an empty
    // body is an empty file.
    let missing = http.put(format!("{base}/pets/Rex/photo")).bearer_auth("tok").send();
    assert_eq!(missing.await.unwrap().status(), 400, "the body is required");
}

#[tokio::test]
async fn text_bodies_arrive_as_text() {
    let (base, _) = start().await;
    let client = client(&base);
    assert_eq!(client.put_note_text("n1", "héllo\nwörld".to_string()).await.unwrap(), "HÉLLO\nWÖRLD");
    let invalid = reqwest::Client::new()
        .put(format!("{base}/notes/n1/text"))
        .header("content-type", "text/plain")
        .body(vec![0xffu8, 0xfe])
        .send()
        .await
        .unwrap();
    assert_eq!(invalid.status(), 400);
    assert!(invalid.text().await.unwrap().contains("not UTF-8"));
}

#[tokio::test]
async fn maps_beside_properties_and_names_from_the_path_round_trip() {
    use features_client::types::Stats;
    let (base, _) = start().await;
    let client = client(&base);
    // No operationId: the method is named from the method and path; both path parameters are
    // percent-encoded by the client and decoded by the server.
    let stats = client.get_stats_by_kind_by_from("a/b c", "ü?#").await.unwrap();
    let mut expected = Stats::new(2);
    expected.additional_properties.insert("a/b c".into(), 1);
    expected.additional_properties.insert("ü?#".into(), 1);
    assert_eq!(stats, expected);
    let raw = reqwest::Client::new().get(format!("{base}/stats/x/y")).send().await.unwrap().text().await.unwrap();
    assert_eq!(raw, r#"{"total":2,"x":1,"y":1}"#, "extra properties sit beside the declared ones");
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
    assert_eq!(not_an_error.status().map(|s| s.as_u16()), Some(500), "an error reply cannot carry a success status");
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
async fn each_credential_kind_is_required_in_its_own_form() {
    let (base, _) = start().await;
    let http = reqwest::Client::new();
    let status = |r: reqwest::Response| r.status().as_u16();
    // Bearer: missing, or another scheme, is 401; the scheme name is case-insensitive.
    assert_eq!(status(http.get(format!("{base}/pets")).send().await.unwrap()), 401);
    let basic = http.get(format!("{base}/pets")).header("authorization", "Basic abc").send().await.unwrap();
    assert_eq!(status(basic), 401);
    let lower = http.get(format!("{base}/pets")).header("authorization", "bearer tok").send().await.unwrap();
    assert_eq!(status(lower), 200);
    // Cookie: found among other cookies.
    let cookies =
        http.get(format!("{base}/shapes/text")).header("cookie", "a=1; session=s9; scale=1").send().await.unwrap();
    assert_eq!(status(cookies), 200);
    let no_scale = http.get(format!("{base}/shapes/text")).header("cookie", "session=s9").send().await.unwrap();
    assert_eq!(status(no_scale), 400, "a required cookie parameter is checked like any other");
    let zero = http.get(format!("{base}/shapes/text")).header("cookie", "session=s9; scale=0").send().await.unwrap();
    assert_eq!(status(zero), 400);
    let other = http.get(format!("{base}/shapes/text")).header("cookie", "sessionx=1").send().await.unwrap();
    let body = other.text().await.unwrap();
    assert!(body.contains("the `session` cookie is missing or empty"), "{body}");
    // No credentials at all where the spec asks for none.
    assert_eq!(status(http.get(format!("{base}/notes")).send().await.unwrap()), 200);
}

#[tokio::test]
async fn of_several_accepted_sets_of_credentials_the_client_sends_one_it_holds_and_the_server_takes_any() {
    let (base, _) = start().await;
    // The client sends the first set it holds in full, and only that set.
    assert_eq!(client(&base).who_am_i().await.unwrap(), "bearer tok with session s1");
    let partner = Client::new(&base, Credentials::new("tok", "dXNlcjpwdw==", "s1").with_partner_key("p7")).unwrap();
    assert_eq!(partner.who_am_i().await.unwrap(), "partner p7");
    // Where every set is one a client need not hold, holding none is an error before sending.
    let refused = client(&base).get_badge("b1").await.unwrap_err();
    assert!(matches!(refused, Error::MissingCredentials { operation: "getBadge", .. }), "{refused:?}");
    assert!(refused.to_string().contains("the `partner_token` query parameter"), "{refused}");
    assert_eq!(partner.get_badge("b1").await.unwrap(), r#"b1 for Some("p7") None"#);
    let token = Client::new(&base, Credentials::new("t", "b", "s").with_partner_token("q 1")).unwrap();
    assert_eq!(token.get_badge("b2").await.unwrap(), r#"b2 for None Some("q 1")"#);

    // The server accepts any one set in full, and names them all otherwise.
    let http = reqwest::Client::new();
    let get = |path: &str| http.get(format!("{base}{path}"));
    let status = |r: reqwest::Response| r.status().as_u16();
    assert_eq!(status(get("/badges").header("x-partner-key", "k").send().await.unwrap()), 200);
    let both = get("/badges").header("authorization", "Bearer t").header("cookie", "session=s").send().await.unwrap();
    assert_eq!(status(both), 200);
    let half = get("/badges").header("authorization", "Bearer t").send().await.unwrap();
    assert_eq!(status(half), 401, "a set is accepted only in full");
    let body = get("/badges").send().await.unwrap().text().await.unwrap();
    assert!(body.contains("the `X-Partner-Key` header, or `authorization: Bearer` and the `session` cookie"), "{body}");
    assert_eq!(status(get("/badges/b?partner_token=x").send().await.unwrap()), 200);
    assert_eq!(status(get("/badges/b").send().await.unwrap()), 401);

    // A set after one the client always holds is never sent by it, but servers accept it.
    assert_eq!(client(&base).get_badge_holder("h").await.unwrap(), r#"h for Some("tok") None"#);
    let vault = get("/badges/h/holder").header("x-vault-key", "v").send().await.unwrap();
    assert_eq!(vault.text().await.unwrap(), r#""h for None Some(\"v\")""#);
}

#[tokio::test]
async fn a_documented_redirect_is_the_reply_with_its_headers() {
    use features_client::types::FollowReplyHeaders;
    let (base, _) = start().await;
    let client = client(&base);
    let headers = client.follow("home").await.unwrap();
    assert_eq!(headers, FollowReplyHeaders::new("/to/home".into()).with_x_hops(1));
    let raw = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("{base}/go/home"))
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 302);
    assert_eq!(raw.headers()["location"], "/to/home");
    assert_eq!(raw.headers()["x-hops"], "1");
    let refused = client.follow("two\nlines").await.unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(500));
    assert!(
        refused.problem().and_then(|p| p.detail.as_deref()).is_some_and(|d| d.contains("`location`")),
        "{refused:?}"
    );
}

#[test]
fn a_version_header_is_refused_by_an_api_without_one() {
    let credentials = Credentials::new("tok", "dXNlcjpwdw==", "s1");
    let refused = Client::builder("http://127.0.0.1:1", credentials).version_header("2").build().unwrap_err();
    assert!(
        matches!(&refused, features_client::Error::InvalidArgument { name: "version_header", reason }
            if reason == "this API has no version header"),
        "{refused:?}"
    );
}

#[tokio::test]
async fn a_default_only_reply_is_read_as_200_with_typed_headers() {
    use features_client::types::{LabelKind, ReadCounterReplyHeaders};
    let (base, _) = start().await;
    let client = client(&base);
    let (count, headers) = client.read_counter().await.unwrap();
    assert_eq!(count, 7);
    assert_eq!(headers, ReadCounterReplyHeaders::new(42).with_x_kind(LabelKind::V1));
    let raw = reqwest::get(format!("{base}/counter")).await.unwrap();
    assert_eq!(raw.status(), 200);
    assert_eq!(raw.headers()["x-count"], "42");
    assert_eq!(raw.headers()["x-kind"], "1");
}

/// A server that answers the counter with the headers given, to see how the client reads them.
async fn counter_server(headers: &'static [(&'static str, &'static str)]) -> String {
    let app = axum::Router::new().route(
        "/counter",
        axum::routing::get(move || async move {
            let mut response = axum::response::IntoResponse::into_response("7");
            for (name, value) in headers {
                response.headers_mut().insert(*name, axum::http::HeaderValue::from_static(value));
            }
            response
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

#[tokio::test]
async fn reply_headers_that_are_missing_or_malformed_are_decode_errors_naming_them() {
    let missing = client(&counter_server(&[]).await).read_counter().await.unwrap_err();
    assert!(matches!(&missing, Error::Decode { path, .. } if path == "header x-count"), "{missing:?}");
    assert!(missing.to_string().contains("missing"), "{missing}");
    let malformed = client(&counter_server(&[("x-count", "many")]).await).read_counter().await.unwrap_err();
    assert!(matches!(&malformed, Error::Decode { path, .. } if path == "header x-count"), "{malformed:?}");
    assert!(malformed.to_string().contains("`many`"), "{malformed}");
    let (_, unlisted) =
        client(&counter_server(&[("x-count", "3"), ("x-kind", "done")]).await).read_counter().await.unwrap();
    assert_eq!(unlisted.x_kind, Some(LabelKind::Unknown("done".into())), "a reply header keeps an unlisted value");
    let (_, headers) = client(&counter_server(&[("x-count", "3")]).await).read_counter().await.unwrap();
    assert_eq!((headers.x_count, headers.x_kind), (3, None));
}

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
    let files = vec![cover_entry, "a.txt application/octet-stream 1".into(), "file application/octet-stream 3".into()];
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

#[tokio::test]
async fn every_limit_of_a_body_schema_is_enforced_and_named() {
    use features_client::types::Limits;
    let (base, _) = start().await;
    let client = client(&base);
    let within = Limits::default()
        .with_code("ABC-12".into())
        .with_step(15)
        .with_ratio(0.5)
        .with_tags(vec!["a".into(), "bc".into()])
        .with_grid(vec![vec![0, 1], vec![2]])
        .with_country("AU".into())
        .with_visited(vec!["NZ".into()]);
    client.check_limits(within).await.unwrap();
    let post = |body: &'static str| {
        reqwest::Client::new()
            .post(format!("{base}/limits"))
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let broken = post(r#"{"code":"abc-1","step":7,"ratio":1,"tags":["a","long","a"],"grid":[[0,-1]]}"#).await.unwrap();
    assert_eq!(broken.status(), 400);
    let problem: serde_json::Value = serde_json::from_slice(&broken.bytes().await.unwrap()).unwrap();
    let errors = problem["errors"].as_object().unwrap();
    let named: Vec<&String> = errors.keys().collect();
    assert_eq!(
        named,
        ["body.code", "body.grid[0][1]", "body.ratio", "body.step", "body.tags", "body.tags[1]"],
        "{problem}"
    );
    assert_eq!(errors["body.code"][0], r"must match the pattern `^[A-Z]{3}-\d+$`");
    assert_eq!(errors["body.ratio"][0], "must be less than 1, is 1");
    assert_eq!(errors["body.step"][0], "must be a multiple of 5, is 7");
    assert_eq!(errors["body.tags"][0], "must not repeat items; item 2 repeats an earlier one");
    // Limits of a referenced schema, on a property and on array items.
    let referenced = post(r#"{"country":"usa","visited":["NZ","nz"]}"#).await.unwrap();
    let problem: serde_json::Value = serde_json::from_slice(&referenced.bytes().await.unwrap()).unwrap();
    let errors = problem["errors"].as_object().unwrap();
    assert_eq!(errors.keys().collect::<Vec<_>>(), ["body.country", "body.visited[1]"], "{problem}");
    assert_eq!(errors["body.country"].as_array().unwrap().len(), 2, "length and pattern: {problem}");
    // The bounds themselves are out of an exclusive range; any value inside is in.
    assert_eq!(post(r#"{"ratio":0}"#).await.unwrap().status(), 400);
    assert_eq!(post(r#"{"ratio":1e-9,"step":-10}"#).await.unwrap().status(), 204);
}

#[tokio::test]
async fn every_limit_of_a_parameter_is_enforced_wherever_it_is_sent() {
    let (base, _) = start().await;
    let get = |target: &str, trace: &str, region: &str| {
        reqwest::Client::new()
            .get(format!("{base}{target}"))
            .header("x-trace", trace)
            .header("cookie", format!("region={region}"))
            .send()
    };
    let within = get("/limits/ABC?page=100&ratio=0.5&step=-15&tags=a&tags=bcd", "12345678", "eu").await.unwrap();
    assert_eq!(within.status(), 204, "{}", within.text().await.unwrap());
    // The client sends the same, through its own encoding of each location.
    client(&base)
        .check_parameter_limits("ABC")
        .page(100)
        .ratio(0.5)
        .step(-15)
        .tags(["a", "bcd"])
        .x_trace("12345678")
        .region("eu")
        .await
        .unwrap();

    // The operation documents its `4XX` body as `LimitError`, so the rejection takes that shape:
    // the status in `code`, the summary in `message`, one `fields` entry per message.
    let broken =
        get("/limits/abcdefg?page=101&ratio=1&step=7&tags=a&tags=long&tags=a&tags=b", "123456789", "EU").await.unwrap();
    assert_eq!(broken.status(), 400);
    assert_eq!(broken.headers()["content-type"], "application/json");
    let body: serde_json::Value = serde_json::from_slice(&broken.bytes().await.unwrap()).unwrap();
    assert_eq!(body["code"], 400, "{body}");
    let errors = field_errors(&body);
    let named: Vec<&String> = errors.keys().collect();
    assert_eq!(named, ["X-Trace", "code", "page", "ratio", "region", "step", "tags", "tags[1]"], "{body}");
    assert_eq!(errors["code"].len(), 2, "length and pattern: {body}");
    assert_eq!(errors["page"][0], "must have between 1 and 100, has 101");
    assert_eq!(errors["ratio"][0], "must be less than 1, is 1");
    assert_eq!(errors["step"][0], "must be a multiple of 5, is 7");
    assert_eq!(errors["tags"].len(), 2, "count and uniqueness: {body}");
    // Below the exclusive minimum, and an object's property limit, named under its parameter.
    let low = get("/limits/AB?ratio=0&page=0", "t", "eu").await.unwrap();
    let body: serde_json::Value = serde_json::from_slice(&low.bytes().await.unwrap()).unwrap();
    assert_eq!(field_errors(&body).keys().collect::<Vec<_>>(), ["page", "ratio"], "{body}");
    let window = reqwest::get(format!("{base}/notes?offset=0&limit=0")).await.unwrap();
    assert_eq!(window.status(), 400);
    let problem: serde_json::Value = serde_json::from_slice(&window.bytes().await.unwrap()).unwrap();
    assert_eq!(problem["errors"].as_object().unwrap().keys().collect::<Vec<_>>(), ["window.limit"], "{problem}");
}

/// The `fields` of a `LimitError` body as field → messages.
fn field_errors(body: &serde_json::Value) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut errors = std::collections::BTreeMap::<String, Vec<String>>::new();
    for entry in body["fields"].as_array().into_iter().flatten() {
        let (field, reason) = (entry["field"].as_str().unwrap(), entry["reason"].as_str().unwrap());
        errors.entry(field.to_string()).or_default().push(reason.to_string());
    }
    errors
}

#[tokio::test]
async fn rejections_take_the_documented_error_body_and_the_client_reads_it_as_the_error_type() {
    use features_client::types::{CheckParameterLimitsError, LimitError, LimitErrorFieldsItem};
    let (base, _) = start().await;
    let error = client(&base).check_parameter_limits("ABC").page(101).await.unwrap_err();
    let Some(CheckParameterLimitsError::ClientError(400, body)) = CheckParameterLimitsError::from_error(&error) else {
        panic!("not the documented 4XX body: {error}");
    };
    let page = LimitErrorFieldsItem::new("page".into(), "must have between 1 and 100, has 101".into());
    assert_eq!(body, LimitError::new(400, body.message.clone()).with_fields(vec![page]));
    assert!(body.message.contains("invalid"), "{}", body.message);
    // The one place errors are written saw it, with the operation that answered.
    let raw = reqwest::get(format!("{base}/limits/ABC?page=0")).await.unwrap();
    assert_eq!(raw.headers()["x-answered-by"], "checkParameterLimits");
    // A method no operation serves at a path: the document's most common `4XX` body, with 405.
    let refused = reqwest::Client::new().delete(format!("{base}/limits/ABC")).send().await.unwrap();
    assert_eq!((refused.status().as_u16(), refused.headers()["x-answered-by"].to_str().unwrap()), (405, "none"));
    let body: serde_json::Value = serde_json::from_slice(&refused.bytes().await.unwrap()).unwrap();
    assert_eq!(body["code"], 405, "{body}");
    assert_eq!(body["message"], "DELETE is not served at /limits/ABC");
    // Where the document gives no error body, errors stay problem details, labelled
    // `application/json` where every reply the operation documents is plain JSON.
    let window = reqwest::get(format!("{base}/notes?offset=0&limit=0")).await.unwrap();
    assert_eq!(window.headers()["content-type"], "application/json");
    let problem: serde_json::Value = serde_json::from_slice(&window.bytes().await.unwrap()).unwrap();
    assert_eq!(problem["type"], "urn:problem-type:invalid-request", "{problem}");
}

#[tokio::test]
async fn a_patch_sends_null_to_clear_and_leaves_out_what_it_keeps() {
    use features_client::Nullable;
    use features_client::types::PetDetails;
    let (base, _) = start().await;
    let mut patch = PetDetails::default().with_color("black".into());
    patch.nickname = Nullable::Null;
    let now = client(&base).patch_pet_details("Rex", patch.clone()).await.unwrap();
    let mut expected = PetDetails::default().with_age(3).with_color("black".into());
    expected.nickname = Nullable::Null;
    assert_eq!(now, expected);
    // On the wire: `null` for the cleared detail, nothing at all for the kept one.
    let wire = portfolio_tests::RawServer::start(portfolio_tests::RawReply::json(200, "{}")).await;
    let _ = client(&wire.base_url()).patch_pet_details("Rex", patch).await;
    assert_eq!(wire.only_request().body, br#"{"nickname":null,"color":"black"}"#);
    // `null` for an optional detail that may not be null is refused, naming it; a client reading
    // such a reply takes it as absent.
    let null_color = reqwest::Client::new()
        .patch(format!("{base}/pets/Rex/details"))
        .bearer_auth("tok")
        .header("content-type", "application/json")
        .body(r#"{"color":null}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(null_color.status(), 400);
    let problem = null_color.text().await.unwrap();
    assert!(problem.contains("color") && problem.contains("`null` is not allowed"), "{problem}");
    let read: PetDetails = serde_json::from_str(r#"{"color":null}"#).unwrap();
    assert_eq!(read.color, None);
    // A value that is present is still checked against its limits.
    let long = PetDetails::default().with_nickname("a very long nickname".into());
    let refused = client(&base).patch_pet_details("Rex", long).await.unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused}");
}

#[tokio::test]
async fn a_protocol_switch_hands_the_connection_to_both_sides() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (base, _) = start().await;
    let mut tunnel = client(&base).open_tunnel("echo").await.expect("switched");
    for message in [&b"hello"[..], b"over the switched connection"] {
        tunnel.write_all(message).await.unwrap();
        let mut echoed = vec![0u8; message.len()];
        tunnel.read_exact(&mut echoed).await.unwrap();
        assert_eq!(echoed, message);
    }
    // A protocol the implementation does not speak is an error reply, as any other.
    let refused = client(&base).open_tunnel("carrier-pigeon").await.unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400), "{refused}");
    // A request that names no protocol is answered 400, naming the header.
    let nameless = reqwest::Client::new().get(format!("{base}/tunnel")).send().await.unwrap();
    let problem: serde_json::Value = serde_json::from_slice(&nameless.bytes().await.unwrap()).unwrap();
    assert_eq!(problem["errors"]["Upgrade"][0], "header is required", "{problem}");
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

#[tokio::test]
async fn string_enums_keep_unlisted_text_in_replies_and_servers_refuse_it() {
    // Outside a server's request reading, any text is a value; a union still prefers a listed
    // value and gives other text to its plain-text member.
    assert_eq!("archived".parse::<LabelKind>().unwrap(), LabelKind::Unknown("archived".into()));
    assert_eq!(LabelKind::Unknown("archived".into()).to_string(), "archived");
    let label: Label = serde_json::from_str(r#""archived""#).unwrap();
    assert_eq!(label, Label::String("archived".into()));
    let kind: Option<LabelKind> = serde_json::from_str(r#""archived""#).unwrap();
    assert_eq!(kind, Some(LabelKind::Unknown("archived".into())));

    let (base, _) = start().await;
    #[allow(deprecated)]
    let err = client(&base).list_labels().kinds(vec![LabelKind::V1, "archived".parse().unwrap()]).await.unwrap_err();
    assert_eq!(err.status().map(|s| s.as_u16()), Some(400));
    let errors = &err.problem().unwrap().errors;
    assert_eq!(
        errors["kinds"],
        [r#"`archived` is not a value of LabelKind; expected one of "in-progress", "1", """#],
        "{err}"
    );
}

/// A server that answers `path` with `body` as JSON, to see how the client decodes it.
async fn json_server(path: &'static str, body: &'static str) -> String {
    let app = axum::Router::new().route(
        path,
        axum::routing::get(move || async move { ([(axum::http::header::CONTENT_TYPE, "application/json")], body) }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

#[tokio::test]
async fn decode_errors_in_required_fields_and_unions_name_the_path_a_tracking_decoder_finds() {
    fn tracked<T: serde::de::DeserializeOwned>(body: &str) -> String {
        let mut de = serde_json::Deserializer::from_str(body);
        serde_path_to_error::deserialize::<_, T>(&mut de).err().expect("the body does not decode").path().to_string()
    }
    for body in [r#"[{"text":"a"},{"id":"n2"}]"#, r#"[{"text":"a","tags":["x",{"y":1}]}]"#] {
        let err = client(&json_server("/notes", body).await).list_notes().await.unwrap_err();
        let Error::Decode { path, .. } = &err else { panic!("{body}: {err:?}") };
        assert_eq!(*path, tracked::<Vec<Note>>(body), "{body}");
    }
    // A union reads its value whole before choosing a member, which loses serde_path_to_error's
    // count of items (it says `[0]` for the second); the error names the union's own place.
    let pets = [
        (r#"[{"petType":"Cat","name":"a"},{"petType":"Snake","name":"b"}]"#, "[1]"),
        (r#"{"pets": [{"petType":"Dog"}, {"petType":"Dog","name":7}]}"#, "."),
        (r#"[{"petType":"Cat","name":"a"}, {"petType":"Dog"}]"#, "[1]"),
    ];
    for (body, expected) in pets {
        let err = client(&json_server("/pets", body).await).list_pets().await.unwrap_err();
        let Error::Decode { path, .. } = &err else { panic!("{body}: {err:?}") };
        assert_eq!(path, expected, "{body}");
    }
}

#[tokio::test]
async fn a_sampled_mock_answers_with_the_documents_example_else_a_valid_sample() {
    let mock = features_server::MockApi::sampled();
    let base = mock.serve().await.unwrap();
    // The document's example, through the real router.
    let notes = client(&base).list_notes().await.unwrap();
    assert_eq!((notes.len(), notes[0].text.as_str(), notes[0].id.as_deref()), (1, "from the example", Some("n7")));
    // No example: a value sampled from the schema, which the client reads as its type.
    let pets = client(&base).list_pets().await.unwrap();
    assert!(matches!(&pets[..], [Pet::Cat(_) | Pet::Dog(_)]), "{pets:?}");
    // Documented reply headers are sampled too, and a reply of several statuses takes its first.
    let (count, _headers) = client(&base).read_counter().await.unwrap();
    assert!(count >= 0);
    let cat = Pet::Cat(Cat::new("cat".into(), "Tom".into()));
    let put = client(&base).put_pet("Tom", cat).await.unwrap();
    assert!(matches!(put, features_client::types::PutPetReply::Ok(_)), "{put:?}");
    // A handler set on the mock takes precedence, and validation still runs first.
    mock.returns_list_pets(Ok(Vec::new()));
    assert_eq!(client(&base).list_pets().await.unwrap(), Vec::new());
    let refused = client(&base).check_parameter_limits("lower").await.unwrap_err();
    assert_eq!(refused.status().map(|s| s.as_u16()), Some(400));
    // Operations nothing could be sampled for (a protocol switch) answer 501 naming themselves.
    let tunnel = reqwest::Client::new().get(format!("{base}/tunnel")).header("upgrade", "echo").send().await.unwrap();
    assert_eq!(tunnel.status(), 501);
    assert_eq!(mock.calls(), ["listNotes", "listPets", "readCounter", "putPet", "listPets", "openTunnel"]);
}

/// Mounted at the path of the document's server URL, the router serves every operation there,
/// and a request outside it gets the document's 404 reply.
#[tokio::test]
async fn the_router_serves_under_the_documents_base_path_when_asked() {
    assert_eq!(features_server::BASE_PATH, "/v1");
    let fixture = std::sync::Arc::new(Fixture::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let config = features_server::ServerConfig::default().with_base_path(features_server::BASE_PATH);
    let app = features_server::router_with(fixture, config);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let client = client(&format!("{base}{}", features_server::BASE_PATH));
    let cat = Pet::Cat(Cat::new("cat".into(), "Tom".into()));
    assert_eq!(client.add_pet(cat.clone()).await.unwrap(), cat);
    assert_eq!(client.list_pets().await.unwrap(), vec![cat]);
    let outside = reqwest::Client::new().get(format!("{base}/pets")).bearer_auth("tok").send().await.unwrap();
    assert_eq!(outside.status(), 404);
    let problem = outside.text().await.unwrap();
    assert!(problem.contains(r#""suggestions":[]"#), "the 404 takes the document's error shape: {problem}");
    // The server re-exports what its signatures name, as the client does.
    let _: features_server::uuid::Uuid = features_client::uuid::Uuid::nil();
}

/// With feature `document` and a route set, the router serves the document it was generated from;
/// without the route, the path is like any other no operation serves.
#[tokio::test]
async fn the_router_serves_its_document_where_asked() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../codegen/tests/fixtures/features.yaml"));
    assert_eq!(features_server::DOCUMENT, text.unwrap());
    assert_eq!(features_server::DOCUMENT_MEDIA_TYPE, "application/yaml");
    for route in [Some("/openapi.yaml"), None] {
        let mut config = features_server::ServerConfig::default();
        if let Some(route) = route {
            config = config.with_document_route(route);
        }
        let app = features_server::router_with(std::sync::Arc::new(Fixture::default()), config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        let reply = reqwest::get(format!("{base}/openapi.yaml")).await.unwrap();
        match route {
            Some(_) => {
                assert_eq!(reply.status(), 200);
                assert_eq!(reply.headers()["content-type"], "application/yaml");
                assert_eq!(reply.text().await.unwrap(), features_server::DOCUMENT);
            }
            None => assert_eq!(reply.status(), 404),
        }
    }
}

/// A tower layer around the router learns which operation each request was routed to, under a
/// base path too; a request no operation serves has none.
#[tokio::test]
async fn layers_around_the_router_learn_each_requests_operation() {
    let seen = std::sync::Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let config = features_server::ServerConfig::default().with_base_path(features_server::BASE_PATH);
    let app = features_server::router_with(std::sync::Arc::new(Fixture::default()), config).layer(
        axum::middleware::from_fn(move |request: axum::extract::Request, next: axum::middleware::Next| {
            let operation = features_server::operation_of(&request).map(|op| (op.id, op.method, op.path));
            record.lock().unwrap().push(operation);
            next.run(request)
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let client = client(&format!("{base}/v1"));
    client.list_pets().await.unwrap();
    let _ = reqwest::get(format!("{base}/v1/nowhere")).await.unwrap();
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen[0], Some(("listPets", "GET", "/pets")));
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[1], None, "no operation serves it");
    assert!(features_server::OPERATIONS.iter().any(|op| op.id == "addPet" && op.method == "POST"));
}
