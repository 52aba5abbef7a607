//! The `Bookstore` service, implemented once over the generated trait: an
//! in-memory store of shelves and their books.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::Mutex;

use buffa_reflect::field_mask::{self, MergeOptions};
use buffa_types::google::protobuf::{Empty, FieldMask};
use tokio_stream::Stream;
use tonic::{Request, Response, Status};

use crate::bookstore::v1::bookstore_server::Bookstore;
use crate::bookstore::v1::{
    Book, CreateBookRequest, CreateShelfRequest, DeleteShelfRequest, GetCoverRequest,
    GetShelfRequest, ListShelvesRequest, ListShelvesResponse, SetCoverRequest, Shelf,
    StreamBooksRequest, UpdateShelfRequest,
};
use crate::google::api::HttpBody;

/// The metadata key `GetShelf` sends back.
pub const REQUEST_ID: &str = "x-request-id";

/// The books of a shelf, as `StreamBooks` sends them.
pub type BookStream = Pin<Box<dyn Stream<Item = Result<Book, Status>> + Send>>;

/// The shelves and their books, behind one lock.
#[derive(Debug, Default)]
pub struct Library {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The number of the next shelf created.
    next_shelf: u64,
    /// The number of the next book created.
    next_book: u64,
    /// Shelves by name.
    shelves: BTreeMap<String, Shelf>,
    /// Each shelf's books, in the order they were added.
    books: BTreeMap<String, Vec<Book>>,
    /// Each shelf's cover picture, as it was sent.
    covers: BTreeMap<String, HttpBody>,
}

impl Library {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while the lock was held leaves consistent maps (every
        // change is one insert or remove), so a poisoned lock is still
        // usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl State {
    fn shelf(&mut self, name: &str) -> Result<&mut Shelf, Status> {
        self.shelves
            .get_mut(name)
            .ok_or_else(|| Status::not_found(format!("no shelf named {name:?}")))
    }
}

#[tonic::async_trait]
impl Bookstore for Library {
    async fn list_shelves(
        &self,
        request: Request<ListShelvesRequest>,
    ) -> Result<Response<ListShelvesResponse>, Status> {
        let theme = request.into_inner().theme;
        let shelves = (self.state().shelves.values())
            .filter(|shelf| theme.is_empty() || shelf.theme == theme)
            .cloned()
            .collect();
        Ok(Response::new(ListShelvesResponse {
            shelves,
            ..Default::default()
        }))
    }

    async fn create_shelf(
        &self,
        request: Request<CreateShelfRequest>,
    ) -> Result<Response<Shelf>, Status> {
        let Some(mut shelf) = request.into_inner().shelf.into_option() else {
            return Err(Status::invalid_argument("a shelf is required"));
        };
        if shelf.capacity < 0 {
            return Err(Status::invalid_argument("capacity must not be negative"));
        }
        let mut state = self.state();
        state.next_shelf += 1;
        shelf.name = format!("shelves/{}", state.next_shelf);
        state.shelves.insert(shelf.name.clone(), shelf.clone());
        state.books.insert(shelf.name.clone(), Vec::new());
        Ok(Response::new(shelf))
    }

    async fn get_shelf(
        &self,
        request: Request<GetShelfRequest>,
    ) -> Result<Response<Shelf>, Status> {
        let request_id = request.metadata().get(REQUEST_ID).cloned();
        let name = request.into_inner().name;
        let mut response = Response::new(self.state().shelf(&name)?.clone());
        if let Some(id) = request_id {
            response.metadata_mut().insert(REQUEST_ID, id);
        }
        Ok(response)
    }

    async fn update_shelf(
        &self,
        request: Request<UpdateShelfRequest>,
    ) -> Result<Response<Shelf>, Status> {
        let request = request.into_inner();
        let update = request.shelf.into_option().unwrap_or_default();
        // AIP-134: the mask names the fields to change; none means all
        // those a client can set.
        let mask = match request.update_mask.into_option() {
            Some(mask) if !mask.paths.is_empty() => mask,
            _ => FieldMask::from_paths(["theme", "capacity"]),
        };
        if mask.covers("name") {
            return Err(Status::invalid_argument("a shelf's name cannot change"));
        }
        let mut state = self.state();
        let stored = state.shelf(&update.name)?;
        let mut updated = stored.clone();
        field_mask::merge(&update, &mut updated, &mask, MergeOptions::default())
            .map_err(|e| Status::invalid_argument(format!("update_mask: {e}")))?;
        if updated.capacity < 0 {
            return Err(Status::invalid_argument("capacity must not be negative"));
        }
        *stored = updated.clone();
        Ok(Response::new(updated))
    }

    async fn delete_shelf(
        &self,
        request: Request<DeleteShelfRequest>,
    ) -> Result<Response<Empty>, Status> {
        let name = request.into_inner().name;
        let mut state = self.state();
        state.shelf(&name)?;
        state.shelves.remove(&name);
        state.books.remove(&name);
        state.covers.remove(&name);
        Ok(Response::new(Empty::default()))
    }

    async fn set_cover(
        &self,
        request: Request<SetCoverRequest>,
    ) -> Result<Response<Empty>, Status> {
        let request = request.into_inner();
        let cover = request.cover.into_option().unwrap_or_default();
        if !cover.content_type.starts_with("image/") {
            return Err(Status::invalid_argument(format!(
                "a cover is an image, not {:?}",
                cover.content_type
            )));
        }
        let mut state = self.state();
        state.shelf(&request.name)?;
        state.covers.insert(request.name, cover);
        Ok(Response::new(Empty::default()))
    }

    async fn get_cover(
        &self,
        request: Request<GetCoverRequest>,
    ) -> Result<Response<HttpBody>, Status> {
        let name = request.into_inner().name;
        let mut state = self.state();
        state.shelf(&name)?;
        let cover = state.covers.get(&name).cloned();
        cover
            .map(Response::new)
            .ok_or_else(|| Status::not_found(format!("shelf {name:?} has no cover")))
    }

    async fn create_book(
        &self,
        request: Request<CreateBookRequest>,
    ) -> Result<Response<Book>, Status> {
        let request = request.into_inner();
        let mut book = request.book.into_option().unwrap_or_default();
        if book.title.is_empty() {
            return Err(Status::invalid_argument("a book needs a title"));
        }
        let mut state = self.state();
        let capacity = state.shelf(&request.parent)?.capacity;
        state.next_book += 1;
        book.name = format!("{}/books/{}", request.parent, state.next_book);
        let books = state.books.entry(request.parent).or_default();
        if capacity > 0 && books.len() >= capacity as usize {
            return Err(Status::failed_precondition("the shelf is full"));
        }
        books.push(book.clone());
        Ok(Response::new(book))
    }

    type StreamBooksStream = BookStream;

    async fn stream_books(
        &self,
        request: Request<StreamBooksRequest>,
    ) -> Result<Response<BookStream>, Status> {
        let request = request.into_inner();
        let mut state = self.state();
        state.shelf(&request.parent)?;
        let books = state
            .books
            .get(&request.parent)
            .cloned()
            .unwrap_or_default();
        let limit = match usize::try_from(request.limit) {
            Ok(0) => books.len(),
            Ok(limit) => limit,
            Err(_) => return Err(Status::invalid_argument("limit must not be negative")),
        };
        let books = books.into_iter().take(limit).map(Ok);
        Ok(Response::new(Box::pin(tokio_stream::iter(books))))
    }
}
