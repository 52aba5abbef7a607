//! Repeated and map fields of generated messages through reflection:
//! [`ReflectList`] for `Vec<T>`, [`ReflectMap`] for `HashMap<K, V>` and
//! `BTreeMap<K, V>`, and the handles that change them.

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};

use super::element::{ReflectElement, ReflectKey};
use crate::FieldDescriptor;
use crate::reflect::{
    ReflectError, ReflectList, ReflectListMut, ReflectMap, ReflectMapMut, ReflectMessage,
};
use crate::value::{MapKey, MapKeyRef, Value, ValueRef};

impl<T: ReflectElement> ReflectList for Vec<T> {
    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn get(&self, index: usize) -> Option<ValueRef<'_>> {
        self.as_slice().get(index).map(T::value_ref)
    }
}

/// A repeated field of a generated message, to change, with its
/// descriptor for errors.
pub(super) struct ListMut<'a, T> {
    pub list: &'a mut Vec<T>,
    pub field: FieldDescriptor,
}

impl<T: ReflectElement> ReflectList for ListMut<'_, T> {
    fn len(&self) -> usize {
        self.list.len()
    }

    fn get(&self, index: usize) -> Option<ValueRef<'_>> {
        ReflectList::get(&*self.list, index)
    }
}

impl<T: ReflectElement> ReflectListMut for ListMut<'_, T> {
    fn push(&mut self, value: Value) -> Result<(), ReflectError> {
        let element =
            T::from_value(value).map_err(|value| ReflectError::wrong_type(&self.field, &value))?;
        self.list.push(element);
        Ok(())
    }

    fn push_message(&mut self) -> Result<&mut dyn ReflectMessage, ReflectError> {
        let mut element = T::default();
        if element.as_message_mut().is_none() {
            return Err(no_messages(&self.field));
        }
        self.list.push(element);
        let last = self.list.last_mut().expect("an element was just pushed");
        Ok(last.as_message_mut().expect("the element is a message"))
    }

    fn clear(&mut self) {
        self.list.clear();
    }
}

/// The map operations reflection needs, over `HashMap` and `BTreeMap`
/// alike.
pub(super) trait MapStorage<K: ReflectKey, V: ReflectElement>:
    Default + Send + Sync
{
    fn len(&self) -> usize;
    fn get_borrowed(&self, key: &K::Borrowed) -> Option<&V>;
    fn insert(&mut self, key: K, value: V);
    fn entry_or_default(&mut self, key: K) -> &mut V;
    fn clear(&mut self);
    fn entries<'a>(&'a self) -> Box<dyn Iterator<Item = (&'a K, &'a V)> + 'a>;
}

impl<K, V> MapStorage<K, V> for HashMap<K, V>
where
    K: ReflectKey + Borrow<K::Borrowed>,
    V: ReflectElement,
{
    fn len(&self) -> usize {
        HashMap::len(self)
    }

    fn get_borrowed(&self, key: &K::Borrowed) -> Option<&V> {
        HashMap::get(self, key)
    }

    fn insert(&mut self, key: K, value: V) {
        HashMap::insert(self, key, value);
    }

    fn entry_or_default(&mut self, key: K) -> &mut V {
        self.entry(key).or_default()
    }

    fn clear(&mut self) {
        HashMap::clear(self);
    }

    fn entries<'a>(&'a self) -> Box<dyn Iterator<Item = (&'a K, &'a V)> + 'a> {
        Box::new(self.iter())
    }
}

impl<K, V> MapStorage<K, V> for BTreeMap<K, V>
where
    K: ReflectKey + Borrow<K::Borrowed>,
    V: ReflectElement,
{
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }

    fn get_borrowed(&self, key: &K::Borrowed) -> Option<&V> {
        BTreeMap::get(self, key)
    }

    fn insert(&mut self, key: K, value: V) {
        BTreeMap::insert(self, key, value);
    }

    fn entry_or_default(&mut self, key: K) -> &mut V {
        self.entry(key).or_default()
    }

    fn clear(&mut self) {
        BTreeMap::clear(self);
    }

    fn entries<'a>(&'a self) -> Box<dyn Iterator<Item = (&'a K, &'a V)> + 'a> {
        Box::new(self.iter())
    }
}

/// [`ReflectMap`] for both map types, written once over [`MapStorage`].
macro_rules! reflect_map {
    ($($map:ident),*) => {$(
        impl<K, V> ReflectMap for $map<K, V>
        where
            K: ReflectKey + Borrow<K::Borrowed>,
            V: ReflectElement,
        {
            fn len(&self) -> usize {
                MapStorage::len(self)
            }

            fn get(&self, key: MapKeyRef<'_>) -> Option<ValueRef<'_>> {
                map_get(self, key)
            }

            fn entries(&self) -> Box<dyn Iterator<Item = (MapKeyRef<'_>, ValueRef<'_>)> + '_> {
                map_entries(self)
            }
        }
    )*};
}

reflect_map!(HashMap, BTreeMap);

fn map_get<'m, K, V, M>(map: &'m M, key: MapKeyRef<'_>) -> Option<ValueRef<'m>>
where
    K: ReflectKey,
    V: ReflectElement,
    M: MapStorage<K, V>,
{
    K::with_borrowed(key, |key| map.get_borrowed(key))
        .flatten()
        .map(V::value_ref)
}

fn map_entries<'m, K, V, M>(
    map: &'m M,
) -> Box<dyn Iterator<Item = (MapKeyRef<'m>, ValueRef<'m>)> + 'm>
where
    K: ReflectKey,
    V: ReflectElement,
    M: MapStorage<K, V>,
{
    Box::new(
        map.entries()
            .map(|(key, value)| (key.key_ref(), value.value_ref())),
    )
}

/// A map field of a generated message, to change, with its descriptor for
/// errors.
pub(super) struct MapMut<'a, M, K, V> {
    pub map: &'a mut M,
    pub field: FieldDescriptor,
    pub types: std::marker::PhantomData<fn() -> (K, V)>,
}

impl<M, K, V> ReflectMap for MapMut<'_, M, K, V>
where
    K: ReflectKey,
    V: ReflectElement,
    M: MapStorage<K, V>,
{
    fn len(&self) -> usize {
        self.map.len()
    }

    fn get(&self, key: MapKeyRef<'_>) -> Option<ValueRef<'_>> {
        map_get(&*self.map, key)
    }

    fn entries(&self) -> Box<dyn Iterator<Item = (MapKeyRef<'_>, ValueRef<'_>)> + '_> {
        map_entries(&*self.map)
    }
}

impl<M, K, V> MapMut<'_, M, K, V>
where
    K: ReflectKey,
    V: ReflectElement,
    M: MapStorage<K, V>,
{
    fn key(&self, key: MapKey) -> Result<K, ReflectError> {
        K::from_key(key).map_err(|key| ReflectError::wrong_type(&self.field, &key.into_value()))
    }
}

impl<M, K, V> ReflectMapMut for MapMut<'_, M, K, V>
where
    K: ReflectKey,
    V: ReflectElement,
    M: MapStorage<K, V>,
{
    fn insert(&mut self, key: MapKey, value: Value) -> Result<(), ReflectError> {
        let key = self.key(key)?;
        let value =
            V::from_value(value).map_err(|value| ReflectError::wrong_type(&self.field, &value))?;
        self.map.insert(key, value);
        Ok(())
    }

    fn entry_message(&mut self, key: MapKey) -> Result<&mut dyn ReflectMessage, ReflectError> {
        let key = self.key(key)?;
        if V::default().as_message_mut().is_none() {
            return Err(no_messages(&self.field));
        }
        Ok(self
            .map
            .entry_or_default(key)
            .as_message_mut()
            .expect("the value is a message"))
    }

    fn clear(&mut self) {
        self.map.clear();
    }
}

/// `field` is a list or map of values that are not messages.
fn no_messages(field: &FieldDescriptor) -> ReflectError {
    ReflectError::new(format!(
        "field {} holds no messages: add its values with push or insert",
        field.full_name()
    ))
}
