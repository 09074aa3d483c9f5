//! The crates of `codegen/tests/fixtures/split/`, a spec split across files with every form of
//! reference to another file, client against server over HTTP: what was brought in from each file
//! works on the wire, under the name its file gives it.

use split_client::types::{Category, Error, GetPetError, ListPetsReplyHeaders, Node, Owner, Pet, Tag};
use split_client::{Client, Credentials};
use split_server::MockApi;

async fn serve() -> (std::sync::Arc<MockApi>, Client, String) {
    let mock = MockApi::new();
    let base = mock.serve().await.expect("serve");
    (mock, Client::new(&base, Credentials::default()).expect("client"), base)
}

fn rex() -> Pet {
    let mut pet = Pet::new(7, "Rex".into());
    // `Category` is the root's own schema, reached from `schemas/Pet.yaml` by `../openapi.yaml#/…`.
    pet.category = Some(Category::Dog);
    // `Tag` is `schemas/Tag.yaml`, reached from `schemas/Pet.yaml` by `./Tag.yaml`.
    pet.tag = Some(Tag::default().with_label("good".into()));
    pet
}

#[tokio::test]
async fn path_items_parameters_bodies_and_replies_from_other_files_round_trip() {
    let (mock, client, _) = serve().await;
    // A request body named by a pointer into `components.yaml`, a reply by a whole file.
    mock.on_create_pet(|_, input| std::future::ready(Ok(input.body)));
    assert_eq!(client.create_pet(rex()).await.expect("created"), rex());

    // Parameters from a file of their own and from a pointer into a file of several; a header
    // from a pointer into a plain YAML map one directory up.
    mock.on_list_pets(|_, input| {
        assert_eq!((input.limit, input.category), (Some(2), Some(Category::Dog)));
        std::future::ready(Ok((vec![rex()], ListPetsReplyHeaders::default().with_x_rate_limit_limit(60))))
    });
    let (pets, headers) = client.list_pets().limit(2).category(Category::Dog).await.expect("listed");
    assert_eq!((pets, headers.x_rate_limit_limit), (vec![rex()], Some(60)));

    // A path-level parameter of a path item given as a pointer into a file.
    mock.on_get_pet(|_, input| std::future::ready(Ok(Pet::new(input.pet_id, "Tom".into()))));
    assert_eq!(client.get_pet(41).await.expect("found").id, 41);

    // A tree whose schema's file refers to itself, under an item named by a JSON file.
    let tree = Owner::new("Ann".into(), vec![Node::new(rex()).with_children(vec![Node::new(rex())])]);
    let answer = tree.clone();
    mock.on_list_owners(move |_, _| std::future::ready(Ok(vec![answer.clone()])));
    assert_eq!(client.list_owners().await.expect("owners"), vec![tree]);
}

#[tokio::test]
async fn limits_and_errors_written_in_other_files_hold() {
    let (mock, client, base) = serve().await;
    mock.on_create_pet(|_, input| std::future::ready(Ok(input.body)));
    // `maxLength: 40` of `schemas/Pet.yaml` and `maximum: 100` of `parameters/limit.yaml`.
    let http = reqwest::Client::new();
    let long = format!(r#"{{"id":1,"name":"{}"}}"#, "x".repeat(41));
    let reply =
        http.post(format!("{base}/pets")).header("content-type", "application/json").body(long).send().await.unwrap();
    assert_eq!(reply.status(), 400);
    let reply = http.get(format!("{base}/pets?limit=101")).send().await.unwrap();
    assert_eq!(reply.status(), 400);
    assert!(mock.calls().is_empty(), "refused before the implementation: {:?}", mock.calls());

    // The 404 of `responses/Problem.yaml`, whose body is `Error` of `components.yaml`.
    mock.on_get_pet(|_, _| std::future::ready(Err(GetPetError::NotFound(Error::new(44, "no such pet".into())).into())));
    let error = client.get_pet(1).await.expect_err("not found");
    assert_eq!(GetPetError::from_error(&error), Some(GetPetError::NotFound(Error::new(44, "no such pet".into()))));
}
