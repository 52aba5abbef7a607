//! `log` <-> `prost.log`, for the layout of `super::pb`.

use super::pb::log as pb;
use crate::datasets::log as native;

impl From<&native::Address> for pb::Address {
    fn from(a: &native::Address) -> Self {
        Self {
            x0: a.x0.into(),
            x1: a.x1.into(),
            x2: a.x2.into(),
            x3: a.x3.into(),
            ..Default::default()
        }
    }
}

impl From<&native::Log> for pb::Log {
    fn from(log: &native::Log) -> Self {
        Self {
            address: pb::Address::from(&log.address).into(),
            identity: log.identity.clone().into(),
            userid: log.userid.clone().into(),
            date: log.date.clone().into(),
            request: log.request.clone().into(),
            code: log.code.into(),
            size: log.size,
            ..Default::default()
        }
    }
}

impl From<&native::Logs> for pb::Logs {
    fn from(logs: &native::Logs) -> Self {
        let mut result = Self::default();
        for log in &logs.logs {
            result.logs.push(log.into());
        }
        result
    }
}

impl From<pb::Address> for native::Address {
    fn from(a: pb::Address) -> Self {
        Self {
            x0: a.x0.try_into().unwrap(),
            x1: a.x1.try_into().unwrap(),
            x2: a.x2.try_into().unwrap(),
            x3: a.x3.try_into().unwrap(),
        }
    }
}

impl From<pb::Log> for native::Log {
    fn from(log: pb::Log) -> Self {
        Self {
            address: log.address.into_option().unwrap().into(),
            identity: log.identity.into(),
            userid: log.userid.into(),
            date: log.date.into(),
            request: log.request.into(),
            code: log.code.try_into().unwrap(),
            size: log.size,
        }
    }
}

impl From<pb::Logs> for native::Logs {
    fn from(logs: pb::Logs) -> Self {
        Self {
            logs: logs.logs.into_iter().map(Into::into).collect(),
        }
    }
}
